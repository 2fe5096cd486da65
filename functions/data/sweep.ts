import { sweepCursors, sweepExpired } from '../lib/db/expiry.js';
import { logger } from '../lib/logger.js';
import { allEntities } from './entities.js';

/**
 * Scheduled: deletes expired rows (and stale list cursors), moving the counters of the partitions
 * they were in. The only expiry locally (dynalite has no TTL); in the cloud it runs before TTL does.
 */
export const handler = async () => {
  let rows = 0;
  let cursors = 0;
  for (const def of allEntities()) {
    rows += await sweepExpired(def);
    cursors += await sweepCursors(def.type);
  }
  if (rows || cursors) logger.info('expired rows swept', { rows, cursors });
  return { rows, cursors };
};
