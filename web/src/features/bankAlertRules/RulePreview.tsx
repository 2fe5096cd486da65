import { Button, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { formatFigureValue } from '@shared/alertRules/index';
import type { AlertRulePreview } from '@shared/schemas/bankAlertRules';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { formatDateTime } from '@/app/format';
import { useT } from '@/i18n';
import type { AlertRuleForm } from './alertRuleForm';
import { previewAlertRule } from './alertRulesApi';

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  list: { maxHeight: '220px', overflowY: 'auto', margin: 0, paddingLeft: tokens.spacingHorizontalL },
  note: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
});

/** Firings listed in the dialog at most (the API answers up to 200). */
const SHOWN = 50;

/**
 * Preview: when the condition would have fired over the last 7 days of stored figures, one line per
 * time it started firing (the incident it would have opened), newest first.
 */
export function RulePreview({
  form,
  disabled,
  accountNames,
}: {
  form: AlertRuleForm;
  disabled: boolean;
  accountNames: ReadonlyMap<number, string>;
}): ReactNode {
  const t = useT();
  const styles = useStyles();
  const preview = useMutation<AlertRulePreview, Error, AlertRuleForm>({ mutationFn: previewAlertRule });
  const data = preview.data;
  return (
    <div className={styles.box}>
      <div>
        <Button type="button" disabled={disabled || preview.isPending} onClick={() => preview.mutate(form)}>
          {t('Preview')}
        </Button>
      </div>
      {preview.isPending ? <Spinner size="tiny" label={t('Looking through the last 7 days…')} /> : null}
      {data && !preview.isPending ? (
        <section aria-label={t('Preview')} data-testid="rule-preview">
          <Text weight="semibold">
            {data.firings.length === 0
              ? t('Would not have fired in the last 7 days')
              : data.firings.length === 1
                ? t('Would have fired once in the last 7 days')
                : t('Would have fired {count} times in the last 7 days', { count: data.firings.length })}
          </Text>
          {data.firings.length ? (
            <ul className={styles.list}>
              {data.firings.slice(0, SHOWN).map((f) => (
                <li key={`${f.at}-${f.account_id}`}>
                  {formatDateTime(f.at)} · {accountNames.get(f.account_id) ?? `#${f.account_id}`}
                  {f.figure ? ` · ${f.figure} ${formatFigureValue(f.figure, f.value)}` : ''}
                </li>
              ))}
            </ul>
          ) : null}
          {data.firings.length > SHOWN ? (
            <Text className={styles.note}>{t('and {count} more', { count: data.firings.length - SHOWN })}</Text>
          ) : null}
          {data.truncated ? (
            <Text className={styles.note} block>
              {t(
                'The preview read at most 20 accounts and 1,000 statements and balance changes of each: some were left out.',
              )}
            </Text>
          ) : null}
          <Text className={styles.note} block>
            {t(
              'The preview sees stored statements and balance changes; past statuses are not stored, so status comparisons stay unknown.',
            )}
          </Text>
        </section>
      ) : null}
    </div>
  );
}
