import { Button, Field, Text } from '@fluentui/react-components';
import { PasswordRegular } from '@fluentui/react-icons';
import type { User } from '@shared/schemas/users';
import type { ReactNode } from 'react';
import { FormDialog } from '@/components/dialog';
import { useFormDialog } from '@/components/dialog/useFormDialog';
import { useT } from '@/i18n';
import { PasswordInput } from './PasswordInput';
import { checkNewPassword } from './userForm';
import { resetUserPassword } from './usersApi';

/** The 'Reset password' row action: sets a new password for `user`, whose sessions then end. */
export function ResetPasswordDialog({ user, onDone }: { user: User; onDone: () => unknown }): ReactNode {
  const t = useT();
  const dialog = useFormDialog({
    initial: () => ({ pwd: '' }),
    check: ({ pwd }: { pwd: string }) => {
      const checked = checkNewPassword(pwd);
      return checked.error === undefined ? { body: checked.pwd } : { errors: { pwd: checked.error } };
    },
    save: (pwd: string) => resetUserPassword(user, pwd),
    onDone,
  });
  const { form, change, errors } = dialog;

  return (
    <FormDialog
      state={dialog}
      title={t('Reset password of {username}', { username: user.username })}
      surfaceStyle={{ width: '440px', maxWidth: '96vw' }}
      trigger={
        <Button size="small" appearance="subtle" icon={<PasswordRegular />}>
          {t('Reset password')}
        </Button>
      }
    >
      <Text>{t('The user is signed out everywhere and signs in again with the new password.')}</Text>
      <Field label={t('New password')} required validationMessage={errors.pwd ? t(errors.pwd) : undefined}>
        <PasswordInput
          name="pwd"
          autoComplete="new-password"
          value={form.pwd}
          onChange={(_, d) => change('pwd', d.value)}
        />
      </Field>
    </FormDialog>
  );
}
