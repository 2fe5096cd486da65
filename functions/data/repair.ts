import { rebuildCheckRollups } from '../checks/checkRollup.js';
import { rebuildBankRollups } from '../bank/rollupRepair.js';
import { bankRuntime } from '../bank/runtime.js';
import { createRepository } from '../lib/db/repository.js';
import { logger } from '../lib/logger.js';
import { allEntities } from './entities.js';

/**
 * The repair path of the row counters (and of index keys written by an older layout): recounts
 * every entity, then rebuilds the rollups the rows can tell: the check rollups from the subtasks and
 * the bank's day figures. Locally it runs at start, so a DATA_DIR from before a layout change lists right.
 */
export const handler = async () => {
  for (const def of allEntities()) {
    const out = await createRepository(def).repair();
    if (out.reindexed) logger.info('rows re-indexed', { type: def.type, ...out });
  }
  // The dashboard's rollups, from the rows kept (docs/check-engine.md and docs/bank-monitor.md "Rollups").
  const checkRollups = await rebuildCheckRollups();
  logger.info('check rollups rebuilt', checkRollups);
  const bankRollups = await rebuildBankRollups(bankRuntime());
  if (bankRollups.days) logger.info('bank day rollups counted again', bankRollups);
};
