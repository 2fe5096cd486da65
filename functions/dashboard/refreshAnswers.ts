import { rollCheckRollups, sharingDayReads } from '../checks/checkRollup.js';
import { refreshAhead } from '../lib/http/keptAnswers.js';
import { logger } from '../lib/logger.js';
import { refreshMetricsFigures } from '../metrics/routes.js';
import { bankDashboardRouter } from './bankRoutes.js';
import { checkDashboardRouter } from './checkRoutes.js';

/**
 * Scheduled, every minute: computes the answers the console's dashboard panels ask for and stores
 * them, so every caller (each Lambda instance, a wall screen alone) is served one small read
 * (lib/http/keptAnswers.ts); and the figures /metrics writes, so a scrape is one small read too.
 */
export const handler = async () => {
  // The check rollups' windows and heatmap days move on first (checkRollup.ts rollCheckRollups):
  // derived from the day items here, once a minute, not added to by every subtask.
  await rollCheckRollups().catch((error: unknown) => logger.error('check rollups not rolled', { error }));
  // The scorecards, the heatmap and the figures each read every site's recent day items: once here.
  await sharingDayReads(async () => {
    const { refreshed, failed } = await refreshAhead([checkDashboardRouter, bankDashboardRouter]);
    if (failed.length) logger.warn('dashboard answers not refreshed', { refreshed: refreshed.length, failed });
    await refreshMetricsFigures().catch((error: unknown) => logger.error('metrics figures not refreshed', { error }));
  });
};
