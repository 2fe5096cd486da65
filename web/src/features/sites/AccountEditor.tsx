import { Button, Field, Input, makeStyles, Text, tokens } from '@fluentui/react-components';
import { Add16Regular, Delete20Regular, Eye16Regular, EyeOff16Regular } from '@fluentui/react-icons';
import { type ReactNode, useState } from 'react';
import { useT } from '@/i18n';
import { type AccountRow, checkAccounts, emptyAccountRow } from './siteForm';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  grid: {
    display: 'grid',
    gridTemplateColumns: '28px minmax(0, 1fr) minmax(0, 1fr) 32px',
    columnGap: tokens.spacingHorizontalS,
    rowGap: tokens.spacingVerticalS,
    alignItems: 'start',
  },
  head: { color: tokens.colorNeutralForeground3, fontWeight: tokens.fontWeightSemibold },
  index: {
    lineHeight: '32px',
    textAlign: 'right',
    color: tokens.colorNeutralForeground3,
    fontVariantNumeric: 'tabular-nums',
  },
  empty: { color: tokens.colorNeutralForeground3, padding: `${tokens.spacingVerticalS} 0` },
  add: { alignSelf: 'flex-start' },
});

export interface AccountEditorProps {
  rows: AccountRow[];
  onRows(rows: AccountRow[]): void;
  /** The dialog's messages, keyed 'accounts.{i}.user' / 'accounts.{i}.pwd' like the server's `extra`. */
  errors: Partial<Record<string, string>>;
}

const PREFIX = 'accounts';

function PasswordInput({
  value,
  label,
  onChange,
}: {
  value: string;
  label: string;
  onChange(value: string): void;
}): ReactNode {
  const t = useT();
  const [shown, setShown] = useState(false);
  return (
    <Input
      type={shown ? 'text' : 'password'}
      aria-label={label}
      autoComplete="new-password"
      value={value}
      onChange={(_, d) => onChange(d.value)}
      contentAfter={
        <Button
          size="small"
          appearance="transparent"
          icon={shown ? <EyeOff16Regular /> : <Eye16Regular />}
          aria-label={t(shown ? 'Hide password' : 'Show password')}
          title={t(shown ? 'Hide password' : 'Show password')}
          onClick={() => setShown(!shown)}
        />
      }
    />
  );
}

/**
 * Rows of bot login accounts (user, pwd); another row is added only when the rows above are valid.
 * A refused Add shows the rows' messages until the rows pass, like a dialog after its first submit.
 */
export function AccountEditor({ rows, onRows, errors }: AccountEditorProps): ReactNode {
  const t = useT();
  const styles = useStyles();
  const [addTried, setAddTried] = useState(false);
  const rowErrors = addTried ? checkAccounts(rows).errors : undefined;
  const set = (index: number, field: 'user' | 'pwd', value: string) =>
    onRows(rows.map((r, i) => (i === index ? { ...r, [field]: value } : r)));
  const remove = (index: number) => onRows(rows.filter((_, i) => i !== index));
  const add = () => {
    if (checkAccounts(rows).errors) return setAddTried(true);
    setAddTried(false);
    onRows([...rows, emptyAccountRow()]);
  };
  const message = (index: number, field: 'user' | 'pwd') => {
    const path = `${PREFIX}.${index}.${field}` as const;
    const m = errors[path] ?? rowErrors?.[path];
    return m ? t(m) : undefined;
  };

  return (
    <div className={styles.root}>
      {rows.length ? (
        <div className={styles.grid}>
          <span />
          <Text size={200} className={styles.head}>
            {t('Account')}
          </Text>
          <Text size={200} className={styles.head}>
            {t('Password')}
          </Text>
          <span />
          {rows.map((row, i) => (
            <div key={row.key} style={{ display: 'contents' }}>
              <span className={styles.index}>{i + 1}</span>
              <Field validationMessage={message(i, 'user')}>
                <Input
                  aria-label={`${t('Account')} ${i + 1}`}
                  autoComplete="off"
                  value={row.user}
                  onChange={(_, d) => set(i, 'user', d.value)}
                />
              </Field>
              <Field validationMessage={message(i, 'pwd')}>
                <PasswordInput label={`${t('Password')} ${i + 1}`} value={row.pwd} onChange={(v) => set(i, 'pwd', v)} />
              </Field>
              <Button
                appearance="subtle"
                icon={<Delete20Regular />}
                aria-label={`${t('Remove account')} ${i + 1}`}
                title={t('Remove account')}
                onClick={() => remove(i)}
              />
            </div>
          ))}
        </div>
      ) : (
        <Text className={styles.empty}>{t('No account yet.')}</Text>
      )}
      <Button className={styles.add} size="small" appearance="secondary" icon={<Add16Regular />} onClick={add}>
        {t('Add account')}
      </Button>
    </div>
  );
}
