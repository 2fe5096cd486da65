import {
  Button,
  Combobox,
  Field,
  Input,
  Label,
  makeStyles,
  Option,
  Radio,
  RadioGroup,
  Switch,
  Text,
  tokens,
} from '@fluentui/react-components';
import { Add20Regular } from '@fluentui/react-icons';
import { Bank } from '@shared/enums';
import { type AlertRule, AlertScopeKind, AlertSeverity } from '@shared/schemas/bankAlertRules';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactElement, type ReactNode, useState } from 'react';
import { dialogSurfaceStyle } from '@/app/dialogSizes';
import { FormDialog } from '@/components/dialog';
import { useFormDialog } from '@/components/dialog/useFormDialog';
import { useT } from '@/i18n';
import {
  type AlertRuleForm,
  alertRuleFormOf,
  checkAlertRule,
  emptyAlertRuleForm,
  expressionProblem,
} from './alertRuleForm';
import { refreshAlertRules, ruleAccountsQuery, saveAlertRule } from './alertRulesApi';
import { ExpressionField } from './ExpressionField';
import { RulePreview } from './RulePreview';

const useStyles = makeStyles({
  group: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, border: 0, padding: 0, margin: 0 },
  legend: { padding: 0, marginBottom: tokens.spacingVerticalXS },
  error: { color: tokens.colorPaletteRedForeground1, fontSize: tokens.fontSizeBase200 },
});

/** Accounts the picker lists at once; typing finds the others. */
const SHOWN_ACCOUNTS = 50;

/** The account's name in pickers and the preview: 'KBZ · user'. */
export const accountName = (a: { user: string; bank_name: number }) =>
  `${Bank.label(a.bank_name as 1 | 2)} · ${a.user}`;

/**
 * New rule (the table action) or Edit (a row's): name, the condition (parsed as one types), where
 * it looks (every account, one bank, chosen accounts), severity, the chat (the bank chat when
 * empty), enabled, and a Preview of when it would have fired. The server's schema checks the form.
 */
export function AlertRuleDialog({ rule, trigger }: { rule?: AlertRule; trigger?: ReactElement }) {
  const t = useT();
  const styles = useStyles();
  const client = useQueryClient();
  const accounts = useQuery(ruleAccountsQuery);
  const dialog = useFormDialog({
    initial: () => (rule ? alertRuleFormOf(rule) : emptyAlertRuleForm()),
    check: checkAlertRule,
    save: (body) => saveAlertRule(rule?.id ?? null, body),
    onDone: () => refreshAlertRules(client),
  });
  const { form, change, errors } = dialog;
  const byPath = errors as Record<string, string | undefined>;
  const message = (path: string) => (byPath[path] ? t(byPath[path] as string) : undefined);
  const names = new Map((accounts.data ?? []).map((a) => [a.id, accountName(a)]));
  const chosen = form.account_ids.map((id) => names.get(id) ?? `#${id}`);
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const matching = (accounts.data ?? [])
    .filter((a) => accountName(a).toLowerCase().includes(needle))
    .slice(0, SHOWN_ACCOUNTS);
  const canPreview =
    form.expression.trim() !== '' &&
    !expressionProblem(form.expression) &&
    (form.scope_kind !== 'accounts' || form.account_ids.length > 0);

  return (
    <FormDialog
      state={dialog}
      modalType="alert"
      surfaceStyle={dialogSurfaceStyle('60vw')}
      title={rule ? t('Edit alert rule') : t('New alert rule')}
      trigger={
        trigger ?? (
          <Button appearance="primary" icon={<Add20Regular />}>
            {t('New rule')}
          </Button>
        )
      }
    >
      <Field label={t('Name')} required validationMessage={message('name')}>
        <Input value={form.name} onChange={(_, d) => change('name', d.value)} />
      </Field>
      <ExpressionField
        value={form.expression}
        onChange={(v) => change('expression', v)}
        message={message('expression')}
      />
      <fieldset className={styles.group}>
        <legend className={styles.legend}>
          <Label required>{t('Accounts')}</Label>
        </legend>
        <RadioGroup
          layout="horizontal"
          value={form.scope_kind}
          onChange={(_, d) => change('scope_kind', d.value as AlertRuleForm['scope_kind'])}
        >
          {AlertScopeKind.options.map((o) => (
            <Radio key={o.value} value={o.value} label={t(o.label)} />
          ))}
        </RadioGroup>
        {form.scope_kind === 'bank' ? (
          <RadioGroup
            layout="horizontal"
            aria-label={t('Bank')}
            value={String(form.bank)}
            onChange={(_, d) => change('bank', Number(d.value) as AlertRuleForm['bank'])}
          >
            {Bank.options.map((o) => (
              <Radio key={o.value} value={String(o.value)} label={o.label} />
            ))}
          </RadioGroup>
        ) : null}
        {form.scope_kind === 'accounts' ? (
          <>
            {/* Typing narrows the options (a stack may have hundreds of accounts); the chosen stay chosen. */}
            <Combobox
              multiselect
              freeform
              aria-label={t('Accounts')}
              placeholder={t('Type to find accounts')}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              selectedOptions={form.account_ids.map(String)}
              onOptionSelect={(_, d) => {
                change('account_ids', d.selectedOptions.map(Number));
                setSearch('');
              }}
            >
              {matching.map((a) => (
                <Option key={a.id} value={String(a.id)}>
                  {accountName(a)}
                </Option>
              ))}
            </Combobox>
            <Text size={200}>{chosen.length ? chosen.join(', ') : t('Choose accounts')}</Text>
          </>
        ) : null}
        {message('scope.account_ids') || message('scope.bank') ? (
          <Text className={styles.error}>{message('scope.account_ids') ?? message('scope.bank')}</Text>
        ) : null}
      </fieldset>
      <Field label={t('Severity')} required validationMessage={message('severity')}>
        <RadioGroup
          layout="horizontal"
          value={form.severity}
          onChange={(_, d) => change('severity', d.value as AlertRuleForm['severity'])}
        >
          {AlertSeverity.options.map((o) => (
            <Radio key={o.value} value={o.value} label={t(o.label)} />
          ))}
        </RadioGroup>
      </Field>
      <Field
        label={t('Chat')}
        hint={t('Empty: the bank chat (Super → TG settings)')}
        validationMessage={message('chat_id')}
      >
        <Input value={form.chat_id} placeholder={t('Bank chat')} onChange={(_, d) => change('chat_id', d.value)} />
      </Field>
      <Switch label={t('Enabled')} checked={form.enabled} onChange={(_, d) => change('enabled', d.checked)} />
      <RulePreview form={form} disabled={!canPreview} accountNames={names} />
    </FormDialog>
  );
}

/** A row's Edit button with the dialog behind it. */
export function EditAlertRuleButton({ rule }: { rule: AlertRule }): ReactNode {
  const t = useT();
  return <AlertRuleDialog rule={rule} trigger={<Button size="small">{t('Edit')}</Button>} />;
}
