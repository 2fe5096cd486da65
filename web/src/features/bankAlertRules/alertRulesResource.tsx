// The Alert rules screen's table (Bank Monitor → Alert rules): every rule with its condition, where
// it looks, severity, chat and an Enabled switch; New rule is the table action, Edit and Delete a row's.
import { Badge } from '@fluentui/react-components';
import { Bank } from '@shared/enums';
import { type AlertRule, AlertSeverity, alertRuleListFields } from '@shared/schemas/bankAlertRules';
import { col, defineResource } from '@/components/table';
import { t } from '@/i18n';
import { AlertRuleDialog, EditAlertRuleButton } from './AlertRuleDialog';
import { ALERT_RULES, deleteAlertRule, setAlertRuleEnabled } from './alertRulesApi';

const SEVERITY_COLOR = { info: 'informative', warning: 'warning', critical: 'danger' } as const;

/** 'Every account', 'KBZ accounts' or the chosen accounts' names. */
export function scopeText(r: AlertRule, names: ReadonlyMap<number, string>): string {
  if (r.scope.kind === 'all') return t('Every account');
  if (r.scope.kind === 'bank') return t('{bank} accounts', { bank: Bank.label(r.scope.bank) });
  return r.scope.account_ids.map((id) => names.get(id) ?? `#${id}`).join(', ');
}

export function alertRulesResource(opts: { accountNames: ReadonlyMap<number, string>; changed: () => unknown }) {
  return defineResource<AlertRule>({
    name: ALERT_RULES,
    endpoint: '/bank/alert-rules',
    title: 'Alert rules',
    listFields: alertRuleListFields,
    rowId: (r) => r.id,
    defaultSort: { field: 'created_at', order: 'desc' },
    failureTip: 'Fetch alert rules failed.',
    columns: [
      col.number('id', 'ID'),
      col.text('name', 'Name', { searchable: true, filter: true, sortable: true }),
      col.text('expression', 'Condition', {
        searchable: true,
        render: (r) => <code>{r.expression}</code>,
      }),
      col.custom('scope', 'Accounts', { text: (r) => scopeText(r, opts.accountNames) }),
      col.enum('severity', 'Severity', AlertSeverity, {
        filter: true,
        sortable: true,
        render: (r) => (
          <Badge appearance="tint" color={SEVERITY_COLOR[r.severity]}>
            {t(AlertSeverity.label(r.severity))}
          </Badge>
        ),
      }),
      col.custom('chat', 'Chat', { text: (r) => r.chat_id ?? t('Bank chat') }),
      col.boolean('enabled', 'Enabled', {
        filter: true,
        toggle: async (r, enabled) => {
          await setAlertRuleEnabled(r, enabled);
          await opts.changed();
        },
      }),
      col.datetime('created_at', 'Created At', { sortable: true, filter: 'range' }),
    ],
    actions: [{ label: 'New rule', write: true, render: () => <AlertRuleDialog /> }],
    rowActions: [
      { label: 'Edit', write: true, render: (r) => <EditAlertRuleButton rule={r} /> },
      {
        label: 'Delete',
        write: true,
        confirm: (r) => t('Confirm Delete Alert Rule {name}?', { name: r.name }),
        onClick: async (r) => {
          await deleteAlertRule(r).catch(() => undefined);
          await opts.changed();
        },
      },
    ],
  });
}
