import { AutoCheckEvent } from '../../shared/schemas/autoCheck.js';
import { logger } from '../lib/logger.js';
import { runRuleSlot, type SlotOutcome } from './runRuleSlot.js';

/**
 * The auto-check handler: EventBridge Scheduler invokes it with a schedule's input
 * `{ruleId, weekStamp, scheduledTime}`, the local timer with `{ruleId, weekStamp, slotAt}`.
 * A malformed event is logged and dropped: retrying it cannot make it valid.
 */
export const handler = async (event: unknown): Promise<SlotOutcome | { status: 'invalid' }> => {
  const parsed = AutoCheckEvent.safeParse(event);
  if (!parsed.success) {
    logger.error('auto-check event refused', { issues: parsed.error.issues.slice(0, 3) });
    return { status: 'invalid' };
  }
  const outcome = await runRuleSlot(parsed.data);
  logger.info('auto-check slot', { ...parsed.data, ...outcome });
  return outcome;
};
