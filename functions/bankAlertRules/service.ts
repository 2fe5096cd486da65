import { parseRule } from '../../shared/alertRules/index.js';
import type { ListQuery } from '../../shared/listQuery.js';
import {
  type AlertRule,
  type AlertRuleBody,
  AlertRuleMessages,
  type AlertRuleScope,
} from '../../shared/schemas/bankAlertRules.js';
import type { ListOutcome } from '../lib/db/entity.js';
import { ValidationError } from '../lib/errors.js';
import type { AuthUser } from '../lib/http/router.js';
import type { BankFigures } from './bankFigures.js';
import { AlertRuleExpressionInvalidError, AlertRuleNotFoundError } from './errors.js';
import { invalidateAlertRules } from './rulesForAccount.js';
import { alertRuleStore, type NewAlertRule, type StoredAlertRule } from './store.js';

// Alert rules' CRUD (issue 45 item 2). A rule is saved only if its condition parses (the 400 names
// the column) and every account it names exists; the poll reads the enabled ones through
// rulesForAccount's cache, which a save here drops so it takes effect in this process at once.

/** Enabled rules at most: every poll's cached read holds them all. */
export const MAX_ENABLED_RULES = 100;
export const TOO_MANY_RULES = `At most ${MAX_ENABLED_RULES} alert rules can be enabled at once.`;

/** Refuses a condition that does not parse, with its column and what was expected there. */
export function checkExpression(expression: string): void {
  const parsed = parseRule(expression);
  if (!parsed.ok) {
    const { column, expected, found, message } = parsed;
    throw new AlertRuleExpressionInvalidError(message, { column, expected, found });
  }
}

/** Each named account must exist (a deleted one does not). */
export async function checkScope(bank: BankFigures, scope: AlertRuleScope): Promise<void> {
  if (scope.kind !== 'accounts') return;
  const found = new Set((await bank.getAccounts(scope.account_ids)).map((a) => a.id));
  const missing = scope.account_ids.find((id) => !found.has(id));
  if (missing !== undefined)
    throw new ValidationError({ 'scope.account_ids': AlertRuleMessages.accountMissing(missing) });
}

async function checkEnabledRoom(except?: number): Promise<void> {
  const enabled = (await alertRuleStore().enabled()).filter((r) => r.id !== except);
  if (enabled.length >= MAX_ENABLED_RULES) throw new ValidationError({ enabled: TOO_MANY_RULES });
}

const toRow = ({ editor_id: _, ...rule }: StoredAlertRule): AlertRule => ({
  ...rule,
  updated_at: rule.updated_at ?? rule.created_at,
});

const toStored = (body: AlertRuleBody, actor: Pick<AuthUser, 'id'> | null): NewAlertRule => ({
  name: body.name,
  expression: body.expression,
  scope: body.scope,
  severity: body.severity,
  chat_id: body.chat_id,
  enabled: body.enabled,
  editor_id: actor?.id ?? null,
});

export async function listAlertRules(query: ListQuery): Promise<ListOutcome<AlertRule>> {
  const page = await alertRuleStore().list(query);
  return { ...page, result: page.result.map(toRow) };
}

export async function getAlertRule(id: number): Promise<AlertRule> {
  const row = await alertRuleStore().get(id);
  if (!row) throw new AlertRuleNotFoundError(id);
  return toRow(row);
}

export async function createAlertRule(
  bank: BankFigures,
  body: AlertRuleBody,
  actor: Pick<AuthUser, 'id'> | null,
): Promise<AlertRule> {
  checkExpression(body.expression);
  await checkScope(bank, body.scope);
  if (body.enabled) await checkEnabledRoom();
  const row = await alertRuleStore().create(toStored(body, actor));
  invalidateAlertRules();
  return toRow(row);
}

export async function updateAlertRule(
  bank: BankFigures,
  id: number,
  body: AlertRuleBody,
  actor: Pick<AuthUser, 'id'> | null,
): Promise<AlertRule> {
  // A missing rule answers 404 before the body's own refusals.
  if (!(await alertRuleStore().get(id))) throw new AlertRuleNotFoundError(id);
  checkExpression(body.expression);
  await checkScope(bank, body.scope);
  if (body.enabled) await checkEnabledRoom(id);
  const row = await alertRuleStore().update(id, toStored(body, actor));
  invalidateAlertRules();
  return toRow(row);
}

export async function deleteAlertRule(id: number): Promise<null> {
  await alertRuleStore().remove(id);
  invalidateAlertRules();
  return null;
}
