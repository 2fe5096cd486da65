import type { Context } from 'aws-lambda';
import { rebuildCheckRollups } from '../checks/checkRollup.js';
import { rebuildBankRollups } from '../bank/rollupRepair.js';
import { bankRuntime } from '../bank/runtime.js';
import { createRepository } from '../lib/db/repository.js';
import { logger } from '../lib/logger.js';
import { allEntities } from './entities.js';
import { type RepairStep, runRepair } from './repairProgress.js';

/** What `npm run repair -- --restart` sends: a new run even when one is unfinished. */
export interface RepairEvent {
  restart?: boolean;
}

/**
 * The repair path of the row counters (and of index keys written by an older layout): recounts
 * every entity, then rebuilds the rollups the rows can tell: the check rollups from the subtasks and
 * the bank's day figures. One step per entity type and per rollup, resumed across invocations
 * (repairProgress.ts). Locally it runs at start, so a DATA_DIR from before a layout change lists right.
 */
export function repairSteps(): RepairStep[] {
  return [
    ...allEntities().map((def) => ({
      name: `type:${def.type}`,
      run: async () => {
        const out = await createRepository(def).repair();
        if (out.reindexed) logger.info('rows re-indexed', { type: def.type, ...out });
      },
    })),
    // The dashboard's rollups, from the rows kept (docs/check-engine.md and docs/bank-monitor.md "Rollups").
    {
      name: 'rollups:checks',
      run: async () => logger.info('check rollups rebuilt', await rebuildCheckRollups()),
    },
    {
      name: 'rollups:bank',
      run: async () => {
        const bankRollups = await rebuildBankRollups(bankRuntime());
        if (bankRollups.days) logger.info('bank day rollups counted again', bankRollups);
      },
    },
  ];
}

export const handler = async (event: RepairEvent | undefined, context: Pick<Context, 'getRemainingTimeInMillis'>) => {
  const outcome = await runRepair({
    steps: repairSteps(),
    timeLeft: () => context.getRemainingTimeInMillis(),
    restart: event?.restart === true,
  });
  logger.info('data repair', outcome);
  return outcome;
};
