import { parseRule, type Rule } from '../../shared/alertRules/index.js';
import type { Bank, EnumValue } from '../../shared/enums.js';
import type { AlertRuleScope, AlertSeverityValue } from '../../shared/schemas/bankAlertRules.js';
import { cachedFor } from '../lib/cachedFor.js';
import { logger } from '../lib/logger.js';
import { type AlertRuleStore, alertRuleStore } from './store.js';

// The poll's read of the alert rules (issue 45 item 2): every enabled rule, parsed, kept for
// RULES_TTL_MS per process as the system config is (functions/systemConfig/getSystemConfig.ts). A
// poll asks for its account's rules and gets them from memory: an account without rules, and one
// with, cost no read of their own; the process reads the rules (one Query, a few KB) once per TTL.
// A save in this process takes effect at once (the service invalidates); elsewhere within the TTL.

export const RULES_TTL_MS = 5_000;

/** A rule as the poll evaluates it. */
export interface ActiveAlertRule {
  id: number;
  name: string;
  expression: string;
  rule: Rule;
  severity: AlertSeverityValue;
  /** null: the bank chat. */
  chat_id: string | null;
  scope: AlertRuleScope;
}

/** What a rule's scope is matched against. */
export interface RuleAccount {
  id: number;
  bank_name: EnumValue<typeof Bank>;
}

export const inScope = (scope: AlertRuleScope, account: RuleAccount): boolean =>
  scope.kind === 'all' ||
  (scope.kind === 'bank' && scope.bank === account.bank_name) ||
  (scope.kind === 'accounts' && scope.account_ids.includes(account.id));

export function createRulesAccessor(store: () => AlertRuleStore, options: { ttlMs?: number; now?: () => number } = {}) {
  return cachedFor(
    async (): Promise<ActiveAlertRule[]> => {
      const rows = await store().enabled();
      const active: ActiveAlertRule[] = [];
      for (const row of rows) {
        // Saved rules parsed when saved; one that no longer does (the language changed) is skipped, loudly.
        const parsed = parseRule(row.expression);
        if (!parsed.ok) {
          logger.error('a stored alert rule no longer parses; skipped', { id: row.id, message: parsed.message });
          continue;
        }
        const { id, name, expression, severity, chat_id, scope } = row;
        active.push({ id, name, expression, rule: parsed.rule, severity, chat_id, scope });
      }
      return active;
    },
    { ttlMs: options.ttlMs ?? RULES_TTL_MS, now: options.now },
  );
}

const accessor = createRulesAccessor(alertRuleStore);

/** The enabled rules that watch `account`, at most RULES_TTL_MS old. */
export async function rulesForAccount(account: RuleAccount): Promise<ActiveAlertRule[]> {
  return (await accessor.get()).filter((r) => inScope(r.scope, account));
}

/** Forgets this process's copy (after a save here, or a test's save through another process). */
export const invalidateAlertRules = (): void => accessor.invalidate();
