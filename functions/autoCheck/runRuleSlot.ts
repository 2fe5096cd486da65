import { lastSlotInstant, slotsOf, weekOf, weekStampAt } from '../../shared/autoCheckSchedule.js';
import type { AutoCheckEvent, SkippedSite } from '../../shared/schemas/autoCheck.js';
import { newEventId, writeEvent } from '../checks/events.js';
import { writeSequence } from '../lib/db/faults.js';
import { ValidationError } from '../lib/errors.js';
import { logger } from '../lib/logger.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import { partitionSites, skippedText, startRuleCheck } from './service.js';
import { type SlotLogArgs, writeSlotLog, writeSlotLogNow } from './slotFollowUps.js';
import { ruleStore, type SlotKey } from './store.js';

/** A slot that fires this late (the local stack was down) is logged as missed instead of run. */
export const MISSED_AFTER_MS = 10 * 60_000;

export type SlotOutcome =
  | { status: 'started'; operationId: number; logId: number }
  | { status: 'nothing_to_check'; logId: number }
  | { status: 'missed'; logId: number }
  /** A second delivery of a slot that already fired. */
  | { status: 'duplicate' }
  /** The rule is deleted, disabled, no longer has the slot, or the slot is from another zone or before the rule's times. */
  | { status: 'ignored'; reason: string };

/**
 * Runs one firing of one rule slot, exactly once: the claim of (rule, week, slot) in the table
 * decides between deliveries. The rule is read again here, so a schedule that fires late or was
 * left behind by an edit, a disable, a delete or a zone change starts nothing.
 */
export function runRuleSlot(event: AutoCheckEvent, now = Date.now()): Promise<SlotOutcome> {
  // Its writes are the sequence `rule_slot` of the crash tests (lib/db/faults.ts).
  return writeSequence('rule_slot', () => run(event, now));
}

async function run(event: AutoCheckEvent, now: number): Promise<SlotOutcome> {
  const zone = (await getSystemConfig()).time_zone;
  const slotAt =
    event.slotAt ??
    (event.scheduledTime ? Date.parse(event.scheduledTime) : undefined) ??
    lastSlotInstant(event.weekStamp, zone, now)?.getTime();
  if (slotAt === undefined || Number.isNaN(slotAt)) return { status: 'ignored', reason: 'no slot instant' };

  const rule = await ruleStore().getRule(event.ruleId);
  if (!rule) return { status: 'ignored', reason: 'rule deleted' };
  if (!rule.enable) return { status: 'ignored', reason: 'rule disabled' };
  if (!slotsOf(rule.times).some((s) => s.weekStamp === event.weekStamp)) {
    return { status: 'ignored', reason: 'slot no longer in the rule' };
  }
  // A schedule still in an old zone fires at another wall-clock time than its slot says.
  if (weekStampAt(slotAt, zone) !== event.weekStamp) return { status: 'ignored', reason: 'slot of another zone' };
  if (slotAt < rule.schedule_since - 60_000) return { status: 'ignored', reason: 'slot before the rule' };

  const key = { ruleId: rule.id, week: weekOf(slotAt, zone), weekStamp: event.weekStamp };
  // Held for as long as a slot may still start a check: a runner that died holding it leaves it to
  // a later delivery, which finds the slot too late and logs it missed instead of checking twice.
  const holder = await ruleStore().claimSlot(key, now, MISSED_AFTER_MS);
  if (!holder) return { status: 'duplicate' };

  // The run's log row completes the claim for good, as its follow-up (slotFollowUps.ts).
  return runClaimed(rule, key, holder, slotAt, event.weekStamp, now);
}

async function runClaimed(
  rule: NonNullable<Awaited<ReturnType<ReturnType<typeof ruleStore>['getRule']>>>,
  key: SlotKey,
  holder: string,
  slotAt: number,
  weekStamp: number,
  now: number,
): Promise<SlotOutcome> {
  const base = { rule_id: rule.id, week_stamp: weekStamp, slot_at: slotAt };
  // The log's id first: the started check's operation row records the log (and the claim's end) in
  // its own write, so a run that dies after it leaves them to the follow-up sweeper, never a check
  // without its log, nor a claim a later delivery would take over and log missed.
  const logId = await ruleStore().newLogId();
  const logged = (log: SlotLogArgs['log']) => writeSlotLogNow({ id: logId, log, key, holder });
  try {
    if (now - slotAt >= MISSED_AFTER_MS) {
      const log = await logged({
        ...base,
        success: false,
        operation_id: null,
        missed: true,
        skipped: [],
        remark: `Missed: due ${Math.round((now - slotAt) / 60_000)} min ago while the scheduler was down`,
      });
      return { status: 'missed', logId: log.id };
    }
    try {
      const eventId = await newEventId();
      // The slot's own time decides maintenance: a late delivery skips what was paused when it was due.
      const followUps = (operationId: number, skipped: SkippedSite[]) => [
        writeSlotLog({
          id: logId,
          log: {
            ...base,
            success: true,
            operation_id: operationId,
            missed: false,
            skipped,
            remark: skipped.length ? `Skipped ${skippedText(skipped)}` : '',
          },
          key,
          holder,
        }),
        writeEvent({
          id: eventId,
          action: 'cron_check',
          operation_id: operationId,
          message: `Auto-check rule ${rule.id} (${rule.name}) started`,
          at: now,
        }),
      ];
      const { operationId } = await startRuleCheck(rule, null, `Rule ${rule.name}`, { pausedAt: slotAt, followUps });
      return { status: 'started', operationId, logId };
    } catch (error) {
      // No site could be checked: a result to log, not a failure to retry.
      if (!(error instanceof ValidationError)) throw error;
      const log = await logged({
        ...base,
        success: false,
        operation_id: null,
        missed: false,
        skipped: (await partitionSites(rule.sites, { pausedAt: slotAt })).skipped,
        remark: error.message,
      });
      return { status: 'nothing_to_check', logId: log.id };
    }
  } catch (error) {
    // Nothing was logged: give the slot back so the scheduler's retry runs it.
    await ruleStore().releaseSlot(key, holder);
    logger.error('auto-check slot failed', { ...key, error });
    throw error;
  }
}
