import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { config } from '../../lib/config.js';
import { eventBridgeRuleScheduler } from './eventBridgeRuleScheduler.js';
import { LocalRuleScheduler } from './localRuleScheduler.js';
import type { RuleScheduler } from './ruleScheduler.js';

/** The process's local plan: the local timer fires it, the API writes it when both share a process. */
export const localRuleScheduler = new LocalRuleScheduler();

let current: RuleScheduler | undefined;

/**
 * The cloud's EventBridge Scheduler when the stack configured a schedule group, the local plan
 * otherwise: configuration decides, not the code (docs/auto-check.md).
 */
export function ruleSchedulerInUse(): RuleScheduler {
  if (current) return current;
  const groupName = process.env.AUTO_CHECK_SCHEDULE_GROUP;
  if (groupName) {
    current = eventBridgeRuleScheduler({
      client: new SchedulerClient({ region: config.region }),
      groupName,
      targetArn: required('AUTO_CHECK_TARGET_ARN'),
      roleArn: required('AUTO_CHECK_SCHEDULER_ROLE_ARN'),
      deadLetterArn: process.env.AUTO_CHECK_DLQ_ARN || undefined,
    });
  } else current = localRuleScheduler;
  return current;
}

/** Points the service at another scheduler (tests); undefined goes back to the configured one. */
export function useRuleScheduler(next: RuleScheduler | undefined): void {
  current = next;
}

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`Missing configuration: ${name} (set with AUTO_CHECK_SCHEDULE_GROUP)`);
  return v;
}
