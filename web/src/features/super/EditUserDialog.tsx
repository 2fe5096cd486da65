import { Button, Field, Input, Switch } from '@fluentui/react-components';
import { EditRegular } from '@fluentui/react-icons';
import type { UpdateUserBody, User } from '@shared/schemas/users';
import type { ReactNode } from 'react';
import { FormDialog } from '@/components/dialog';
import { useFormDialog } from '@/components/dialog/useFormDialog';
import { useT } from '@/i18n';
import { RoleField } from './RoleField';
import { checkUserEdit, type EditUserForm } from './userForm';
import { updateUser } from './usersApi';

const formOf = (u: User): EditUserForm => ({ nickname: u.nickname, role: u.role, enabled: u.enabled });

/** The 'Edit' row action: nickname, role and enabled of `user`; the server refuses locking oneself out. */
export function EditUserDialog({ user, onDone }: { user: User; onDone: () => unknown }): ReactNode {
  const t = useT();
  const dialog = useFormDialog({
    initial: () => formOf(user),
    check: (f: EditUserForm) => checkUserEdit(formOf(user), f),
    save: (body: UpdateUserBody) => updateUser(user, body),
    onDone,
  });
  const { form, change, errors } = dialog;
  const message = (key: keyof EditUserForm) => (errors[key] ? t(errors[key]) : undefined);

  return (
    <FormDialog
      state={dialog}
      title={t('Edit user {username}', { username: user.username })}
      trigger={
        <Button size="small" appearance="subtle" icon={<EditRegular />}>
          {t('Edit')}
        </Button>
      }
    >
      <Field label={t('Nickname')} required validationMessage={message('nickname')}>
        <Input name="nickname" value={form.nickname} onChange={(_, d) => change('nickname', d.value)} />
      </Field>
      <RoleField value={form.role} onChange={(role) => change('role', role)} validationMessage={message('role')} />
      <Field
        label={t('Enabled')}
        hint={t('A disabled user is signed out at once and cannot sign in.')}
        validationMessage={message('enabled')}
      >
        <Switch name="enabled" checked={form.enabled} onChange={(_, d) => change('enabled', d.checked)} />
      </Field>
    </FormDialog>
  );
}
