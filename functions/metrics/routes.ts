import { HEADERS } from '../../shared/envelope.js';
import { readStoredAnswer, storeAnswer } from '../lib/db/storedAnswers.js';
import { RawReply, Router } from '../lib/http/router.js';
import { logger } from '../lib/logger.js';
import { computeMetricsFigures, type MetricsFigures } from './figures.js';
import { openMetricsText } from './openMetrics.js';

/** The stored answer's key (lib/db/storedAnswers.ts), beside the dashboard's kept answers. */
const FIGURES_KEY = '/metrics figures';
/**
 * Figures younger than this are served as stored: the refresher writes them every minute, so a
 * scrape every 15 s reads one record; an older one (a refresher that stopped, the first scrape
 * after a start) is computed by the scrape and stored for the next. Always on, unlike the
 * dashboard's sharing (SHARED_ANSWERS): a scrape that computed would cost what a scrape must not.
 */
export const FIGURES_MAX_AGE_MS = 90_000;

async function storeFigures(figures: MetricsFigures): Promise<void> {
  await storeAnswer(FIGURES_KEY, { body: JSON.stringify(figures), headers: {}, madeAt: figures.made_at, kept: true });
}

/** Computes the figures, the queues' depth with them, and stores them: the dashboard's refresher, every minute. */
export async function refreshMetricsFigures(): Promise<void> {
  await storeFigures((await computeMetricsFigures(Date.now(), { queues: true })).figures);
}

/** The stored figures if young enough, else computed and stored; with the read units it took. */
async function currentFigures(now = Date.now()): Promise<{ figures: MetricsFigures; rcu: number }> {
  const { answer, rcu } = await readStoredAnswer(FIGURES_KEY);
  const stored =
    answer && now - answer.madeAt < FIGURES_MAX_AGE_MS ? (JSON.parse(answer.body) as MetricsFigures) : null;
  // A record an older version stored (no per-bank figures) is computed anew, as an old one is.
  if (stored && Array.isArray(stored.banks)) return { figures: stored, rcu };
  const computed = await computeMetricsFigures(now);
  await storeFigures(computed.figures).catch((error: unknown) =>
    logger.warn('storing the metrics figures failed', { error }),
  );
  return { figures: computed.figures, rcu: rcu + computed.rcu };
}

/**
 * GET /metrics (issue 46 item 3): OpenMetrics text for Prometheus, for API tokens of scope `metrics`
 * only. x-consumed-rcu says what the scrape read: one stored record, unless it had to compute.
 */
export const metricsRouter = new Router().get(
  '/metrics',
  async () => {
    const { figures, rcu } = await currentFigures();
    const { text, contentType } = await openMetricsText(figures);
    return new RawReply(200, text, {
      'content-type': contentType,
      'cache-control': 'no-store',
      [HEADERS.consumedCapacity]: String(Math.round(rcu * 100) / 100),
    });
  },
  { tokenScope: 'metrics' },
);
