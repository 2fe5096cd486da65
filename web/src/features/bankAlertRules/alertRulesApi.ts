import type { AlertRule, AlertRuleBodyInput, AlertRulePreview } from '@shared/schemas/bankAlertRules';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { queryKeys } from '@/api/queryKeys';
import { request } from '@/api/request';
import { t } from '@/i18n';
import { type AlertRuleForm, alertRuleFormOf, bodyOf, scopeOf } from './alertRuleForm';

/** The list's name: its query key root and its settings' storage key. */
export const ALERT_RULES = 'bankAlertRules';

export const refreshAlertRules = (client: QueryClient) =>
  client.invalidateQueries({ queryKey: queryKeys.all(ALERT_RULES) });

/** The bank accounts a scope may name: id, user and bank (the list's "All", at most 1,000). */
export const ruleAccountsQuery = queryOptions({
  queryKey: [ALERT_RULES, 'accounts'] as const,
  queryFn: async ({ signal }) =>
    (
      await request<{ result: { id: number; user: string; bank_name: number }[] }>({
        url: '/bank/bank-accounts',
        // Newest first: the list's "All" stops at 1,000.
        params: { page_size: '0', sort: JSON.stringify({ id: 'desc' }) },
        signal,
        failureTip: 'Fetch bank accounts failed.',
      })
    ).result,
  staleTime: 30_000,
});

export function saveAlertRule(id: number | null, body: AlertRuleBodyInput): Promise<AlertRule> {
  const name = String(body.name ?? '').trim();
  return request<AlertRule>({
    method: id === null ? 'POST' : 'PUT',
    url: id === null ? '/bank/alert-rules' : `/bank/alert-rules/${id}`,
    data: body,
    successTip: t('Save alert rule {name} success.', { name }),
    failureTip: t('Save alert rule {name} failed.', { name }),
  });
}

/** The list's switch: the whole rule again (PUT replaces it), enabled or not. */
export function setAlertRuleEnabled(r: AlertRule, enabled: boolean): Promise<AlertRule> {
  return request<AlertRule>({
    method: 'PUT',
    url: `/bank/alert-rules/${r.id}`,
    data: { ...bodyOf(alertRuleFormOf(r)), enabled },
    successTip: t('Update {field} success', { field: 'enabled' }),
    failureTip: 'Update enable failed.',
  });
}

export function deleteAlertRule(r: Pick<AlertRule, 'id' | 'name'>): Promise<null> {
  return request<null>({
    method: 'DELETE',
    url: `/bank/alert-rules/${r.id}`,
    successTip: t('Delete alert rule {name} success.', { name: r.name }),
    failureTip: t('Delete alert rule {name} failed.', { name: r.name }),
  });
}

export function previewAlertRule(form: AlertRuleForm): Promise<AlertRulePreview> {
  return request<AlertRulePreview>({
    method: 'POST',
    url: '/bank/alert-rules/preview',
    data: { expression: form.expression, scope: scopeOf(form) },
    failureTip: 'Preview failed.',
  });
}
