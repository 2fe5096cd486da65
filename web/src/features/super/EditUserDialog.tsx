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
import type { User } from '@shared/schemas/users';
import { type FormEvent, type ReactNode, useState } from 'react';
import { isApiError } from '@/api/ApiError';
import { dialogSurfaceStyle } from '@/app/dialogSizes';
import { FormDialogActions } from '@/components/dialog';
import { useT } from '@/i18n';
import { checkUserEdit, type EditUserErrors, type EditUserForm } from './userForm';
import { updateUser } from './usersApi';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

const formOf = (u: User): EditUserForm => ({ nickname: u.nickname, role: u.role, enabled: u.enabled });

/** The 'Edit' row action: nickname, role and enabled of `user`; the server refuses locking oneself out. */
export function EditUserDialog({ user, onDone }: { user: User; onDone: () => unknown }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<EditUserForm>(() => formOf(user));
  const [tried, setTried] = useState(false);
  const [serverErrors, setServerErrors] = useState<EditUserErrors>({});
  const [busy, setBusy] = useState(false);
  const checked = checkUserEdit(formOf(user), form);
  const errors: EditUserErrors = { ...(tried && checked.errors ? checked.errors : {}), ...serverErrors };
  const message = (key: keyof EditUserForm) => (errors[key] ? t(errors[key]) : undefined);

  const change = <K extends keyof EditUserForm>(key: K, value: EditUserForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setServerErrors(({ [key]: _, ...rest }) => rest);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (checked.errors) return;
    if (!checked.body) {
      setOpen(false);
      return;
    }
    setBusy(true);
    try {
      await updateUser(user, checked.body);
      setOpen(false);
      await onDone();
    } catch (error) {
      // The toast gave the reason; the field the server named (e.g. the last super user's role) is marked too.
      if (isApiError(error) && error.extra) setServerErrors(error.extra as EditUserErrors);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(_, d) => {
        setOpen(d.open);
        if (d.open) {
          setForm(formOf(user));
          setTried(false);
          setServerErrors({});
        }
      }}
    >
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
