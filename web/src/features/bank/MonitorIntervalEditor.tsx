import { Button, Field, Input, makeStyles, tokens } from '@fluentui/react-components';
import { MONITOR_INTERVAL_MAX_S, MONITOR_INTERVAL_MIN_S } from '@shared/constants';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useT } from '@/i18n';
import { checkInterval } from './bankForms';

const useStyles = makeStyles({
  form: { display: 'flex', alignItems: 'flex-start', gap: tokens.spacingHorizontalS },
  input: { width: '120px' },
  save: { marginTop: '26px' },
});

/** The monitor interval, 5 to 120 seconds ('Must between 5 and 120'); an unchanged value is not sent. */
export function MonitorIntervalEditor({
  value,
  onSave,
}: {
  value: number;
  onSave(interval: number): Promise<unknown>;
}): ReactNode {
  const t = useT();
  const styles = useStyles();
  const [typed, setTyped] = useState(String(value));
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = checkInterval(typed);
    if (checked.error !== undefined) return setError(checked.error);
    setTyped(String(checked.value));
    if (checked.value === value) return;
    setBusy(true);
    try {
      await onSave(checked.value);
    } catch {
      // 'Update Monitor Interval failed.' has been shown with the reason.
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <Field
        label={t('Monitor Interval')}
        required
        validationMessage={error ? t(error) : undefined}
        hint={`${MONITOR_INTERVAL_MIN_S}-${MONITOR_INTERVAL_MAX_S} ${t('seconds')}`}
      >
        <Input
          className={styles.input}
          type="number"
          min={MONITOR_INTERVAL_MIN_S}
          max={MONITOR_INTERVAL_MAX_S}
          contentAfter={t('seconds')}
          value={typed}
          onChange={(_, d) => {
            setTyped(d.value);
            setError(undefined);
          }}
        />
      </Field>
      <Button className={styles.save} type="submit" appearance="primary" disabled={busy}>
        {t('Save')}
      </Button>
    </form>
  );
}
