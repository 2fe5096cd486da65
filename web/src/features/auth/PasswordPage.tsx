import { Button, Field, Input, makeStyles, tokens } from '@fluentui/react-components';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { clearAuth } from '@/app/auth';
import { LOGIN_PATH } from '@/app/navigation';
import { PageHeader, Panel } from '@/app/PageHeader';
import { BusyButton } from '@/components/form/BusyButton';
import { useT } from '@/i18n';
import { changePassword } from './authApi';
import { type PasswordForm, validatePasswordForm } from './passwordForm';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '420px' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, marginTop: tokens.spacingVerticalS },
});

const empty: PasswordForm = { old: '', pwd: '', repeat: '' };
const fields: ReadonlyArray<{ key: keyof PasswordForm; label: string; autoComplete: string }> = [
  { key: 'old', label: 'Current password', autoComplete: 'current-password' },
  { key: 'pwd', label: 'New password', autoComplete: 'new-password' },
  { key: 'repeat', label: 'Repeat new password', autoComplete: 'new-password' },
];

export default function PasswordPage(): ReactNode {
  const styles = useStyles();
  const t = useT();
  const navigate = useNavigate();
  const [form, setForm] = useState<PasswordForm>(empty);
  const [touched, setTouched] = useState<Partial<Record<keyof PasswordForm, boolean>>>({});
  const [busy, setBusy] = useState(false);
  const errors = validatePasswordForm(form);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched({ old: true, pwd: true, repeat: true });
    if (Object.keys(errors).length) return;
    setBusy(true);
    try {
      await changePassword({ old_pwd: form.old.trim(), pwd: form.pwd.trim() });
      // The route guard reacts to clearAuth by sending the user to login with this page as the
      // redirect; after a password change they should land home instead, so navigate first.
      navigate(LOGIN_PATH, { replace: true, state: { passwordChanged: true } });
      clearAuth();
    } catch {
      // The request layer already showed 'Password update failed.' with the reason; the form stays as typed.
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title={t('Edit Password')} subtitle={t('After the change you will be asked to sign in again.')} />
      <Panel style={{ maxWidth: 560 }}>
        <form className={styles.form} onSubmit={submit} noValidate>
          {fields.map(({ key, label, autoComplete }) => (
            <Field
              key={key}
              label={t(label)}
              required
              validationMessage={touched[key] && errors[key] ? t(errors[key]) : undefined}
            >
              <Input
                type="password"
                name={key}
                autoComplete={autoComplete}
                value={form[key]}
                onChange={(_, d) => setForm((f) => ({ ...f, [key]: d.value }))}
                onBlur={() => setTouched((x) => ({ ...x, [key]: true }))}
              />
            </Field>
          ))}
          <div className={styles.actions}>
            <BusyButton type="submit" busy={busy}>
              {t('Save')}
            </BusyButton>
            <Button
              type="button"
              onClick={() => {
                setForm(empty);
                setTouched({});
              }}
            >
              {t('Reset')}
            </Button>
          </div>
        </form>
      </Panel>
    </>
  );
}
