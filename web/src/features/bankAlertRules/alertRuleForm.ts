// The alert rule dialog's form: what the inputs hold, turned into the API body and checked with the
// server's own schema (shared/schemas/bankAlertRules) and the server's own parser (shared/alertRules),
// so the console refuses a condition at the same column, with the same expected tokens, as the API.
import { type Expected, parseRule } from '@shared/alertRules/index';
import type { Bank, EnumValue } from '@shared/enums';
import {
  type AlertRule,
  AlertRuleBody,
  type AlertScopeKindValue,
  type AlertSeverityValue,
} from '@shared/schemas/bankAlertRules';
import { checkWith } from '@/components/dialog/checkWith';
import type { FormCheck } from '@/components/dialog/useFormDialog';

export interface AlertRuleForm {
  name: string;
  expression: string;
  scope_kind: AlertScopeKindValue;
  bank: EnumValue<typeof Bank>;
  account_ids: number[];
  severity: AlertSeverityValue;
  /** '' for the bank chat. */
  chat_id: string;
  enabled: boolean;
}

export const emptyAlertRuleForm = (): AlertRuleForm => ({
  name: '',
  expression: '',
  scope_kind: 'all',
  bank: 1,
  account_ids: [],
  severity: 'warning',
  chat_id: '',
  enabled: true,
});

export const alertRuleFormOf = (r: AlertRule): AlertRuleForm => ({
  name: r.name,
  expression: r.expression,
  scope_kind: r.scope.kind,
  bank: r.scope.kind === 'bank' ? r.scope.bank : 1,
  account_ids: r.scope.kind === 'accounts' ? r.scope.account_ids : [],
  severity: r.severity,
  chat_id: r.chat_id ?? '',
  enabled: r.enabled,
});

/** The scope as the API takes it: only the chosen kind's field. */
export const scopeOf = (f: Pick<AlertRuleForm, 'scope_kind' | 'bank' | 'account_ids'>) =>
  f.scope_kind === 'bank'
    ? { kind: 'bank' as const, bank: f.bank }
    : f.scope_kind === 'accounts'
      ? { kind: 'accounts' as const, account_ids: f.account_ids }
      : { kind: 'all' as const };

export const bodyOf = (f: AlertRuleForm) => ({
  name: f.name,
  expression: f.expression,
  scope: scopeOf(f),
  severity: f.severity,
  chat_id: f.chat_id,
  enabled: f.enabled,
});

/** Where a condition does not parse, as the editor marks it; undefined when it parses (or is empty). */
export interface ExpressionProblem {
  column: number;
  expected: Expected[];
  found: string;
}

export function expressionProblem(expression: string): ExpressionProblem | undefined {
  if (!expression.trim()) return undefined;
  const parsed = parseRule(expression);
  return parsed.ok ? undefined : { column: parsed.column, expected: parsed.expected, found: parsed.found };
}

/** The schema's refusals by field, and a condition that does not parse as the expression's. */
export function checkAlertRule(form: AlertRuleForm): FormCheck<AlertRuleForm, AlertRuleBody> {
  const checked = checkWith<AlertRuleForm, typeof AlertRuleBody>(AlertRuleBody, bodyOf(form));
  const problem = expressionProblem(form.expression);
  if (!problem) return checked;
  return { errors: { ...(checked.errors ?? {}), expression: 'The condition is not valid.' } };
}
