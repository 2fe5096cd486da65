import { logger } from '../lib/logger.js';
import { recountAllSites } from './service.js';

/** Scheduled: the repair path of available_account_cnt (see recountSite). */
export const handler = async () => {
  const sites = await recountAllSites();
  logger.info('site counters recounted', { sites });
};
