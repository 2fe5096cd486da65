import {
  ConflictException,
  CreateScheduleCommand,
  type CreateScheduleCommandInput,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  type SchedulerClient,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
import { type Slot, slotsOf } from '../../../shared/autoCheckSchedule.js';
import { mapLimit } from '../../lib/mapLimit.js';
import type { RuleScheduler, ScheduledRule } from './ruleScheduler.js';

export interface EventBridgeRuleSchedulerOptions {
  client: SchedulerClient;
  /** The stage's schedule group (AUTO_CHECK_SCHEDULE_GROUP). */
  groupName: string;
  /** The auto-check handler (AUTO_CHECK_TARGET_ARN). */
  targetArn: string;
  /** The role EventBridge Scheduler assumes to invoke it (AUTO_CHECK_SCHEDULER_ROLE_ARN). */
  roleArn: string;
  /** Where a firing the scheduler could not deliver goes (AUTO_CHECK_DLQ_ARN), alarmed on in the cloud. */
  deadLetterArn?: string;
}

/** Scheduler's API allows some tens of calls a second per account; a resync stays below. */
const CALLS_AT_ONCE = 5;
const DAY_NAMES = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'];

/** One schedule per (rule, slot): the name says which, so a rule's schedules follow from its times. */
export const scheduleName = (ruleId: number, weekStamp: number) => `rule-${ruleId}-${weekStamp}`;
const slotNames = (rule: ScheduledRule) => slotsOf(rule.times).map((slot) => scheduleName(rule.id, slot.weekStamp));

/** EventBridge's six-field cron of a slot; its day of week is by name, MON to SUN. */
export function eventBridgeCron(slot: Pick<Slot, 'day' | 'time'>): string {
  const [h, m] = slot.time.split(':').map(Number);
  return `cron(${m} ${h} ? * ${DAY_NAMES[slot.day - 1]} *)`;
}

/**
 * The cloud adapter: each enabled rule's slots are EventBridge Scheduler schedules in the stage's
 * group, with cron in the configured zone (Scheduler applies the zone's DST itself), targeting
 * the auto-check handler with `{ruleId, weekStamp, scheduledTime}`.
 */
export function eventBridgeRuleScheduler(opts: EventBridgeRuleSchedulerOptions): RuleScheduler {
  const { client, groupName } = opts;

  function input(ruleId: number, slot: Slot, zone: string): CreateScheduleCommandInput {
    return {
      Name: scheduleName(ruleId, slot.weekStamp),
      GroupName: groupName,
      ScheduleExpression: eventBridgeCron(slot),
      ScheduleExpressionTimezone: zone,
      FlexibleTimeWindow: { Mode: 'OFF' },
      State: 'ENABLED',
      Description: `Auto-check rule ${ruleId}, ${slot.time} on weekday ${slot.day}`,
      Target: {
        Arn: opts.targetArn,
        RoleArn: opts.roleArn,
        // The scheduled time names the slot's instant; the handler refuses one too late.
        Input: JSON.stringify({
          ruleId,
          weekStamp: slot.weekStamp,
          scheduledTime: '<aws.scheduler.scheduled-time>',
        }),
        RetryPolicy: { MaximumEventAgeInSeconds: 600, MaximumRetryAttempts: 3 },
        ...(opts.deadLetterArn ? { DeadLetterConfig: { Arn: opts.deadLetterArn } } : {}),
      },
    };
  }

  /** Updates the slot's schedule, or creates it when there is none (a new slot, or one lost). */
  async function put(ruleId: number, slot: Slot, zone: string, exists: boolean): Promise<void> {
    const cmd = input(ruleId, slot, zone);
    if (exists) {
      try {
        await client.send(new UpdateScheduleCommand(cmd));
        return;
      } catch (error) {
        if (!(error instanceof ResourceNotFoundException)) throw error;
      }
    }
    try {
      await client.send(new CreateScheduleCommand(cmd));
    } catch (error) {
      // Created meanwhile by a parallel sync: make it ours.
      if (!(error instanceof ConflictException)) throw error;
      await client.send(new UpdateScheduleCommand(cmd));
    }
  }

  async function remove(name: string): Promise<void> {
    try {
      await client.send(new DeleteScheduleCommand({ Name: name, GroupName: groupName }));
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
  }

  /**
   * Puts every wanted slot (so a moved zone reaches the ones that stay) and removes the `had` ones
   * no longer wanted. `had` is what the caller knows was scheduled; a slot of it that exists no
   * more is created, one that is already gone is not missed.
   */
  async function apply(rules: readonly ScheduledRule[], zone: string, had: readonly string[]): Promise<void> {
    const wanted = new Map<string, { ruleId: number; slot: Slot }>();
    for (const rule of rules) {
      if (!rule.enable) continue;
      for (const slot of slotsOf(rule.times))
        wanted.set(scheduleName(rule.id, slot.weekStamp), { ruleId: rule.id, slot });
    }
    const present = new Set(had);
    await mapLimit([...wanted.entries()], CALLS_AT_ONCE, ([name, w]) => put(w.ruleId, w.slot, zone, present.has(name)));
    await mapLimit(
      [...present].filter((name) => !wanted.has(name)),
      CALLS_AT_ONCE,
      remove,
    );
  }

  return {
    // Without a previous state (a new rule) nothing was scheduled: its slots are created (one
    // left by a partial failure answers Conflict and is updated instead).
    syncRule: async (rule, zone, previous) => apply([rule], zone, previous ? slotNames(previous) : []),
    removeRule: async (rule) => {
      await mapLimit(slotNames(rule), CALLS_AT_ONCE, remove);
    },
    resyncAll: async (rules, zone) => apply(rules, zone, rules.flatMap(slotNames)),
  };
}
