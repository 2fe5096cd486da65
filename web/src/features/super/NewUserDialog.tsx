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
  tokens,
} from '@fluentui/react-components';
import { PersonAddRegular, PersonRegular } from '@fluentui/react-icons';
import { UserRole } from '@shared/enums';
import type { UserRoleValue } from '@shared/schemas/auth';
import type { ReactNode } from 'react';
import { dialogSurfaceStyle } from '@/app/dialogSizes';
import { FormDialogActions } from '@/components/dialog';
import { useFormDialog } from '@/components/dialog/useFormDialog';
import { useT } from '@/i18n';
import { PasswordInput } from './PasswordInput';
import { checkNewUser, emptyNewUser, type NewUserForm } from './userForm';
import { createUser } from './usersApi';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

/** The NewUser table action: a button and its dialog; `onCreated` reloads the list. */
export function NewUserDialog({ onCreated }: { onCreated: () => unknown }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const { open, setOpen, form, change, errors, busy, submit } = useFormDialog({
    initial: () => emptyNewUser,
    check: checkNewUser,
    save: createUser,
    onDone: onCreated,
  });
  const message = (key: keyof NewUserForm) => (errors[key] ? t(errors[key]) : undefined);

  return (
    <Dialog open={open} modalType="alert" onOpenChange={(_, d) => setOpen(d.open)}>
      <DialogTrigger disableButtonEnhancement>
        <Button appearance="primary" icon={<PersonAddRegular />}>
          {t('NewUser')}
        </Button>
      </DialogTrigger>
      <DialogSurface style={dialogSurfaceStyle('default')}>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{t('New User')}</DialogTitle>
            <DialogContent className={styles.form}>
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
            </DialogContent>
            <FormDialogActions busy={busy} />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
