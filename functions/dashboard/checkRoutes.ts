import { HEADERS } from '../../shared/envelope.js';
import { DASHBOARD_SHARED_MS, HeatmapQuery, ScorecardQuery, TimingsQuery } from '../../shared/schemas/dashboard.js';
import { type Request, Router } from '../lib/http/router.js';
import { heatmap, type Measured, scorecard, timings } from './checkDashboard.js';

/** `data.result` plus the read units in x-consumed-rcu, as every dashboard answer. */
function measuredReply<T>(req: Request, { result, rcu }: Measured<T>): { result: T } {
  req.setHeader(HEADERS.consumedCapacity, String(rcu));
  return { result };
}

/** The check panels of the home dashboard; the bank and delivery panels have their own routes. */
export const checkDashboardRouter = new Router()
  .get(
    '/dashboard/scorecard',
    async (req) => measuredReply(req, await scorecard((req.queryData as ScorecardQuery).days)),
    { query: ScorecardQuery, sharedFor: DASHBOARD_SHARED_MS },
  )
  .get('/dashboard/heatmap', async (req) => measuredReply(req, await heatmap((req.queryData as HeatmapQuery).days)), {
    query: HeatmapQuery,
    sharedFor: DASHBOARD_SHARED_MS,
  })
  .get(
    '/dashboard/timings',
    async (req) => {
      const { site_id, days } = req.queryData as TimingsQuery;
      return measuredReply(req, await timings(site_id, days));
    },
    { query: TimingsQuery, sharedFor: DASHBOARD_SHARED_MS },
  );
