import { Button, Field, Input } from '@fluentui/react-components';
import { PersonAddRegular, PersonRegular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { FormDialog } from '@/components/dialog';
import { useFormDialog } from '@/components/dialog/useFormDialog';
import { useT } from '@/i18n';
import { RoleField } from './RoleField';
import { PasswordInput } from './PasswordInput';
import { checkNewUser, emptyNewUser, type NewUserForm } from './userForm';
import { createUser } from './usersApi';

/** The NewUser table action: a button and its dialog; `onCreated` reloads the list. */
export function NewUserDialog({ onCreated }: { onCreated: () => unknown }): ReactNode {
  const t = useT();
  const dialog = useFormDialog({
    initial: () => emptyNewUser,
    check: checkNewUser,
    save: createUser,
    onDone: onCreated,
  });
  const { form, change, errors } = dialog;
  const message = (key: keyof NewUserForm) => (errors[key] ? t(errors[key]) : undefined);

  return (
    <FormDialog
      state={dialog}
      modalType="alert"
      title={t('New User')}
      trigger={
        <Button appearance="primary" icon={<PersonAddRegular />}>
          {t('NewUser')}
        </Button>
      }
    >
      <Field label={t('Username')} required validationMessage={message('username')}>
        <Input
          name="username"
          autoComplete="off"
          contentBefore={<PersonRegular />}
          value={form.username}
          onChange={(_, d) => change('username', d.value)}
        />
      </Field>
      <Field
        label={t('Nickname')}
        hint={t('Shown in the header and as creator of records; the username when empty.')}
        validationMessage={message('nickname')}
      >
        <Input name="nickname" value={form.nickname} onChange={(_, d) => change('nickname', d.value)} />
      </Field>
      <Field label={t('Password')} required validationMessage={message('password')}>
        <PasswordInput
          name="password"
          autoComplete="new-password"
          value={form.password}
          onChange={(_, d) => change('password', d.value)}
        />
      </Field>
      <RoleField value={form.role} onChange={(role) => change('role', role)} validationMessage={message('role')} />
    </FormDialog>
  );
}
