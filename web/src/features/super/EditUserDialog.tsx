import {
  Button,
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DialogTrigger,
  Field,
  Input,
  makeStyles,
  Radio,
  RadioGroup,
  Switch,
  tokens,
} from '@fluentui/react-components';
import { EditRegular } from '@fluentui/react-icons';
import { UserRole } from '@shared/enums';
import type { UserRoleValue } from '@shared/schemas/auth';
import type { UpdateUserBody, User } from '@shared/schemas/users';
import type { ReactNode } from 'react';
import { dialogSurfaceStyle } from '@/app/dialogSizes';
import { FormDialogActions } from '@/components/dialog';
import { useFormDialog } from '@/components/dialog/useFormDialog';
import { useT } from '@/i18n';
import { checkUserEdit, type EditUserForm } from './userForm';
import { updateUser } from './usersApi';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

const formOf = (u: User): EditUserForm => ({ nickname: u.nickname, role: u.role, enabled: u.enabled });

/** The 'Edit' row action: nickname, role and enabled of `user`; the server refuses locking oneself out. */
export function EditUserDialog({ user, onDone }: { user: User; onDone: () => unknown }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const { open, setOpen, form, change, errors, busy, submit } = useFormDialog({
    initial: () => formOf(user),
    check: (f: EditUserForm) => checkUserEdit(formOf(user), f),
    save: (body: UpdateUserBody) => updateUser(user, body),
    onDone,
  });
  const message = (key: keyof EditUserForm) => (errors[key] ? t(errors[key]) : undefined);

  return (
    <Dialog open={open} onOpenChange={(_, d) => setOpen(d.open)}>
      <DialogTrigger disableButtonEnhancement>
        <Button size="small" appearance="subtle" icon={<EditRegular />}>
          {t('Edit')}
        </Button>
      </DialogTrigger>
      <DialogSurface style={dialogSurfaceStyle('default')}>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{t('Edit user {username}', { username: user.username })}</DialogTitle>
            <DialogContent className={styles.form}>
              <Field label={t('Nickname')} required validationMessage={message('nickname')}>
                <Input name="nickname" value={form.nickname} onChange={(_, d) => change('nickname', d.value)} />
              </Field>
              <Field label={t('Role')} required validationMessage={message('role')}>
                <RadioGroup
                  layout="horizontal"
                  value={form.role}
                  onChange={(_, d) => change('role', d.value as UserRoleValue)}
                >
                  {UserRole.options.map((o) => (
                    <Radio key={o.value} value={o.value} label={t(o.label)} />
                  ))}
                </RadioGroup>
              </Field>
              <Field
                label={t('Enabled')}
                hint={t('A disabled user is signed out at once and cannot sign in.')}
                validationMessage={message('enabled')}
              >
                <Switch name="enabled" checked={form.enabled} onChange={(_, d) => change('enabled', d.checked)} />
              </Field>
            </DialogContent>
            <FormDialogActions busy={busy} />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
