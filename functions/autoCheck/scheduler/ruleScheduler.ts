import type { RuleTimes } from '../../../shared/schemas/autoCheck.js';

/** What a scheduler needs of a rule. */
export interface ScheduledRule {
  id: number;
  times: RuleTimes;
  enable: boolean;
}

/**
 * Keeps the firing of rule slots in step with the rules: an enabled, live rule has exactly its
 * (weekday, time) slots scheduled in the configured zone; a disabled or deleted one has none.
 * The cloud adapter keeps EventBridge Scheduler schedules; the local one a plan the local timer
 * (scripts/local/ruleTimer.ts) fires. Both call the same auto-check handler, which checks the
 * rule again when a slot fires, so a late or stray firing of a changed rule does nothing.
 */
export interface RuleScheduler {
  /**
   * Makes a rule's schedules match it: creates and moves its slots, and removes the slots of
   * `previous` (the rule as it was scheduled before this change) that it no longer has. The
   * schedules are never listed (the cloud's would need scheduler:ListSchedules on every resource).
   */
  syncRule(rule: ScheduledRule, zone: string, previous?: ScheduledRule): Promise<void>;
  /** Removes every schedule of a rule (deleted), as it was scheduled. */
  removeRule(rule: ScheduledRule): Promise<void>;
  /** Every rule again, e.g. after the configured time zone changed; a disabled rule's slots are removed. */
  resyncAll(rules: readonly ScheduledRule[], zone: string): Promise<void>;
}
