import { sweepCursors, sweepExpired } from '../lib/db/expiry.js';
import { logger } from '../lib/logger.js';
import { allEntities } from './entities.js';
import { deleteExpiredFiles } from './expiredFiles.js';

/**
 * Scheduled: deletes expired rows (and stale list cursors), moving the counters of the partitions
 * they were in, and the files of expired video rows and raw logs. The only expiry locally (dynalite
 * has no TTL); in the cloud it runs before TTL does.
 */
export const handler = async () => {
  let rows = 0;
  let cursors = 0;
  for (const def of allEntities()) {
    rows += await sweepExpired(def, Date.now(), deleteExpiredFiles);
    cursors += await sweepCursors(def.type);
  }
  if (rows || cursors) logger.info('expired rows swept', { rows, cursors });
  return { rows, cursors };
};
