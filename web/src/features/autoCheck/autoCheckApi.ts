import type { AutoCheckRule, CheckNowReply, RuleBodyInput, RuleCalendar, RuleItem } from '@shared/schemas/autoCheck';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { queryKeys } from '@/api/queryKeys';
import { request } from '@/api/request';
import { t } from '@/i18n';

/** Query-key roots; the tables' keys start with their resource names. */
export const RULES = 'autoCheckRules';
export const AUTO_LOGS = 'autoCheckLogs';

/**
 * The spec (section 8) shows 'Password update failed' when a rule cannot be fetched on the edit and
 * auto logs pages, a slip of the original; the console says what failed instead.
 */
export const FETCH_RULE_FAILED = 'Fetch rule failed.';

/** Lists, the calendar, details and logs all show rules: a change refreshes every one. */
export const refreshRules = (client: QueryClient) =>
  Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.all(RULES) }),
    client.invalidateQueries({ queryKey: queryKeys.all(AUTO_LOGS) }),
  ]).then(() => undefined);

export const ruleQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.detail(RULES, id),
    queryFn: ({ signal }) =>
      request<AutoCheckRule>({ url: `/auto-check/rules/${id}`, signal, failureTip: FETCH_RULE_FAILED }),
    // The form is loaded once; a background refetch must not look like a change.
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The rule's sites with their names and state now (the Show-sites dialog, the edit page's names). */
export const ruleItemsQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.related(RULES, 'items', id),
    queryFn: ({ signal }) =>
      request<{ result: RuleItem[] }>({
        url: `/auto-check/rules/${id}/items`,
        signal,
        failureTip: 'Fetch sites failed.',
      }).then((page) => page.result),
  });

/** GET /auto-check/calendar: every enabled rule's slots on the week, weighed against the checkers' concurrency. */
export const calendarQuery = queryOptions({
  queryKey: [RULES, 'calendar'] as const,
  queryFn: ({ signal }) =>
    request<RuleCalendar>({ url: '/auto-check/calendar', signal, failureTip: FETCH_RULE_FAILED }),
});

export function createRule(body: RuleBodyInput): Promise<AutoCheckRule> {
  const name = String(body.name ?? '').trim();
  return request<AutoCheckRule>({
    method: 'POST',
    url: '/auto-check/rules',
    data: body,
    successTip: t('Create new rule {name} success.', { name }),
    failureTip: t('Create new rule {name} failed.', { name }),
  });
}

export function updateRule(id: number, body: RuleBodyInput): Promise<AutoCheckRule> {
  const name = String(body.name ?? '').trim();
  return request<AutoCheckRule>({
    method: 'PUT',
    url: `/auto-check/rules/${id}`,
    data: body,
    successTip: t('Update rule {name} success.', { name }),
    failureTip: t('Update rule {name} failed.', { name }),
  });
}

export function setRuleEnable(rule: Pick<AutoCheckRule, 'id'>, enable: boolean): Promise<AutoCheckRule> {
  return request<AutoCheckRule>({
    method: 'PUT',
    url: `/auto-check/rules/${rule.id}`,
    data: { enable },
    successTip: t('Update {field} success', { field: 'enable' }),
    failureTip: 'Update enable failed.',
  });
}

/** Soft delete (spec section 4): the rule leaves every list and never runs again. */
export function deleteRule(rule: Pick<AutoCheckRule, 'id' | 'name'>): Promise<AutoCheckRule> {
  return request<AutoCheckRule>({
    method: 'PUT',
    url: `/auto-check/rules/${rule.id}`,
    data: { delete: 1 },
    successTip: t('Delete rule {name} success.', { name: rule.name }),
    failureTip: t('Delete rule {name} failed.', { name: rule.name }),
  });
}

/** Check now: one operation named AutoCheck over the rule's sites and points. */
export function checkRuleNow(rule: Pick<AutoCheckRule, 'id'>): Promise<CheckNowReply> {
  return request<CheckNowReply>({
    method: 'POST',
    url: `/auto-check/rules/${rule.id}/check`,
    successTip: 'Check success, go operation menu to check.',
    failureTip: 'Check failed, please contact IT.',
  });
}
