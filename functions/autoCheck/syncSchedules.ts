import { logger } from '../lib/logger.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import { resyncRuleSchedules } from './service.js';

/**
 * Every auto-check rule's schedules put back in step with the rules the table holds, in the
 * configured zone: after a point-in-time restore (the schedules live outside the table, so they
 * still follow the rules as they were before it), or whenever they are in doubt. Schedules of rules
 * the table no longer has are not listed (docs/auto-check.md): one that fires finds no rule and
 * does nothing. Locally it runs at every start, over the process's plan.
 */
export const handler = async (): Promise<{ rules: number; zone: string }> => {
  const zone = (await getSystemConfig()).time_zone;
  const rules = await resyncRuleSchedules(zone);
  logger.info('auto-check schedules re-synced', { rules, zone });
  return { rules, zone };
};
