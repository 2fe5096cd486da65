import { HEADERS } from '../../shared/envelope.js';
import {
  CONSOLE_CALLS,
  DASHBOARD_SHARED_MS,
  HeatmapQuery,
  heatmapCells,
  SCORECARD_DAYS,
  type Scorecard,
  ScorecardQuery,
  scorecardRows,
  TIMINGS_OPENING_DAYS,
  TIMINGS_SITES_DAYS,
  TimingsQuery,
  timingsOpeningSite,
} from '../../shared/schemas/dashboard.js';
import { storedData } from '../lib/http/keptAnswers.js';
import { type Request, Router } from '../lib/http/router.js';
import { heatmap, type Measured, scorecard, timings } from './checkDashboard.js';

/** `data.result` plus the read units in x-consumed-rcu, as every dashboard answer. */
function measuredReply<T>(req: Request, { result, rcu }: Measured<T>): { result: T } {
  req.setHeader(HEADERS.consumedCapacity, String(rcu));
  return { result };
}

/** The Timings panel as it opens (on its scorecard's first site), named from the kept scorecard. */
async function openingTimings() {
  const card = await storedData<{ result: Scorecard }>(
    '/dashboard/scorecard',
    ScorecardQuery.parse(CONSOLE_CALLS.scorecard(TIMINGS_SITES_DAYS)),
  );
  const site = card && timingsOpeningSite(scorecardRows(card.result));
  return site === undefined ? [] : [CONSOLE_CALLS.timings(site, TIMINGS_OPENING_DAYS)];
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
    {
      query: ScorecardQuery,
      sharedFor: DASHBOARD_SHARED_MS,
      refreshAhead: SCORECARD_DAYS.map(CONSOLE_CALLS.scorecard),
    },
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
    { query: HeatmapQuery, sharedFor: DASHBOARD_SHARED_MS, refreshAhead: [CONSOLE_CALLS.heatmap] },
  )
  .get(
    '/dashboard/timings',
    async (req) => {
      const { site_id, days } = req.queryData as TimingsQuery;
      return measuredReply(req, await timings(site_id, days));
    },
    { query: TimingsQuery, sharedFor: DASHBOARD_SHARED_MS, refreshAhead: openingTimings },
  );
