import { HEADERS } from '../../shared/envelope.js';
import { answerKey, keptOrComputed } from '../lib/http/keptAnswers.js';
import { RawReply, Router } from '../lib/http/router.js';
import { computeMetricsFigures, type MetricsFigures } from './figures.js';
import { openMetricsText } from './openMetrics.js';

/** As the dashboard's: served again in-process meanwhile, and kept by the refresher every minute. */
const FIGURES_SHARED_MS = 10_000;

/**
 * The figures as a kept answer. Not mounted in the API (its JSON is no contract): the dashboard's
 * refresher keeps it computed (functions/dashboard/refreshAnswers.ts), and /metrics reads it.
 */
export const metricsFiguresRouter = new Router().get(
  '/metrics/figures',
  async (req) => {
    const { figures, rcu } = await computeMetricsFigures();
    req.setHeader(HEADERS.consumedCapacity, String(Math.round(rcu * 100) / 100));
    return figures;
  },
  { sharedFor: FIGURES_SHARED_MS, refreshAhead: [{}], tokenScope: 'metrics' },
);
const figuresRoute = metricsFiguresRouter.routes[0];

/**
 * GET /metrics (issue 46 item 3): OpenMetrics text for Prometheus, for API tokens of scope `metrics`
 * only. A scrape reads the one stored figures answer (x-consumed-rcu says what it read); only the
 * first after a start, or after the refresher stopped, computes them.
 */
export const metricsRouter = new Router().get(
  '/metrics',
  async (req) => {
    const answer = await keptOrComputed(figuresRoute, req, answerKey(figuresRoute.pattern, {}));
    const figures = (JSON.parse(answer.body) as { data: MetricsFigures }).data;
    const { text, contentType } = await openMetricsText(figures);
    return new RawReply(200, text, {
      'content-type': contentType,
      'cache-control': 'no-store',
      [HEADERS.consumedCapacity]: answer.headers[HEADERS.consumedCapacity] ?? '0',
    });
  },
  { tokenScope: 'metrics' },
);
