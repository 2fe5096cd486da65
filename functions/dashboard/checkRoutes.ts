import { HEADERS } from '../../shared/envelope.js';
import {
  DASHBOARD_SHARED_MS,
  HeatmapQuery,
  heatmapCells,
  ScorecardQuery,
  scorecardRows,
  TimingsQuery,
} from '../../shared/schemas/dashboard.js';
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
    async (req) => {
      const { days, shape } = req.queryData as ScorecardQuery;
      const card = await scorecard(days);
      return shape === 'rows'
        ? measuredReply(req, { ...card, result: scorecardRows(card.result) })
        : measuredReply(req, card);
    },
    { query: ScorecardQuery, sharedFor: DASHBOARD_SHARED_MS },
  )
  .get(
    '/dashboard/heatmap',
    async (req) => {
      const { days, shape } = req.queryData as HeatmapQuery;
      const map = await heatmap(days);
      return shape === 'rows'
        ? measuredReply(req, { ...map, result: heatmapCells(map.result) })
        : measuredReply(req, map);
    },
    { query: HeatmapQuery, sharedFor: DASHBOARD_SHARED_MS },
  )
  .get(
    '/dashboard/timings',
    async (req) => {
      const { site_id, days } = req.queryData as TimingsQuery;
      return measuredReply(req, await timings(site_id, days));
    },
    { query: TimingsQuery, sharedFor: DASHBOARD_SHARED_MS },
  );
