import type { Context } from 'aws-lambda';
import type { LambdaDef } from '../../functions/registry.js';
import type { AutoCheckEvent } from '../../shared/schemas/autoCheck.js';
import { loadHandler } from './loadHandler.js';
import { type RuleTimer, startRuleTimer } from './ruleTimer.js';

/**
 * The rule timer of the local stack, over the registry's auto-check handler and the process's
 * local plan (the one the API's RuleScheduler port writes). Imported after the environment is set.
 */
export async function startLocalRuleTimer(def: LambdaDef, context: () => Context): Promise<RuleTimer> {
  const handler = await loadHandler<AutoCheckEvent>(def);
  const { localRuleScheduler } = await import('../../functions/autoCheck/scheduler/ruleSchedulerInUse.js');
  const { ruleStore } = await import('../../functions/autoCheck/store.js');
  const { getSystemConfig } = await import('../../functions/systemConfig/getSystemConfig.js');
  const timer = startRuleTimer({
    plan: localRuleScheduler,
    handler: (event) => handler(event, context()),
    load: async () => {
      const [rules, config] = await Promise.all([ruleStore().allRules(), getSystemConfig()]);
      return { rules, zone: config.time_zone };
    },
  });
  // The catch-up of missed slots runs before the stack says it is up.
  await timer.started;
  return timer;
}
