import {
  Button,
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DialogTrigger,
  Field,
  Text,
  tokens,
} from '@fluentui/react-components';
import { PasswordRegular } from '@fluentui/react-icons';
import type { User } from '@shared/schemas/users';
import { type FormEvent, type ReactNode, useState } from 'react';
import { FormDialogActions } from '@/components/dialog';
import { useT } from '@/i18n';
import { PasswordInput } from './PasswordInput';
import { checkNewPassword } from './userForm';
import { resetUserPassword } from './usersApi';

/** The 'Reset password' row action: sets a new password for `user`, whose sessions then end. */
export function ResetPasswordDialog({ user, onDone }: { user: User; onDone: () => unknown }): ReactNode {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [pwd, setPwd] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const checked = checkNewPassword(pwd);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (checked.error !== undefined) return;
    setBusy(true);
    try {
      await resetUserPassword(user, checked.pwd);
      setOpen(false);
      setPwd('');
      setTried(false);
      await onDone();
    } catch {
      // The request layer showed 'Reset password failed' with the reason; the dialog stays open.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(_, d) => {
        setOpen(d.open);
        if (!d.open) {
          setPwd('');
          setTried(false);
        }
      }}
    >
      <DialogTrigger disableButtonEnhancement>
        <Button size="small" appearance="subtle" icon={<PasswordRegular />}>
          {t('Reset password')}
        </Button>
      </DialogTrigger>
      <DialogSurface style={{ width: '440px', maxWidth: '96vw' }}>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{t('Reset password of {username}', { username: user.username })}</DialogTitle>
            <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM }}>
              <Text>{t('The user is signed out everywhere and signs in again with the new password.')}</Text>
              <Field
                label={t('New password')}
                required
                validationMessage={tried && checked.error ? t(checked.error) : undefined}
              >
                <PasswordInput
                  name="pwd"
                  autoComplete="new-password"
                  value={pwd}
                  onChange={(_, d) => setPwd(d.value)}
                />
              </Field>
            </DialogContent>
            <FormDialogActions busy={busy} />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
