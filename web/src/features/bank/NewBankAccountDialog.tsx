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
import { Add20Regular, PersonRegular } from '@fluentui/react-icons';
import { Bank } from '@shared/enums';
import type { BankValue } from '@shared/schemas/bank';
import type { ReactNode } from 'react';
import { dialogSurfaceStyle } from '@/app/dialogSizes';
import { FormDialogActions } from '@/components/dialog';
import { useFormDialog } from '@/components/dialog/useFormDialog';
import { PasswordInput } from '@/features/super/PasswordInput';
import { useT } from '@/i18n';
import { createBankAccount } from './bankApi';
import { checkNewBankAccount, emptyNewBankAccount, type NewBankAccountForm } from './bankForms';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

/** The NewBankAccount table action: a button and its dialog (bank, user, password); `onCreated` reloads. */
export function NewBankAccountDialog({ onCreated }: { onCreated: () => unknown }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const { open, setOpen, form, change, errors, busy, submit } = useFormDialog({
    initial: emptyNewBankAccount,
    check: checkNewBankAccount,
    save: createBankAccount,
    onDone: onCreated,
  });
  const message = (key: keyof NewBankAccountForm) => (errors[key] ? t(errors[key]) : undefined);

  return (
    <Dialog open={open} modalType="alert" onOpenChange={(_, d) => setOpen(d.open)}>
      <DialogTrigger disableButtonEnhancement>
        <Button appearance="primary" icon={<Add20Regular />}>
          {t('NewBankAccount')}
        </Button>
      </DialogTrigger>
      <DialogSurface style={dialogSurfaceStyle('default')}>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{t('New Bank Account')}</DialogTitle>
            <DialogContent className={styles.form}>
              <Field label={t('Bank')} required validationMessage={message('bank_name')}>
                <RadioGroup
                  layout="horizontal"
                  value={String(form.bank_name)}
                  onChange={(_, d) => change('bank_name', Number(d.value) as BankValue)}
                >
                  {Bank.options.map((o) => (
                    <Radio key={o.value} value={String(o.value)} label={t(o.label)} />
                  ))}
                </RadioGroup>
              </Field>
              <Field label={t('User')} required validationMessage={message('user')}>
                <Input
                  name="user"
                  autoComplete="off"
                  contentBefore={<PersonRegular />}
                  value={form.user}
                  onChange={(_, d) => change('user', d.value)}
                />
              </Field>
              <Field label={t('Password')} required validationMessage={message('pwd')}>
                <PasswordInput
                  name="pwd"
                  autoComplete="new-password"
                  value={form.pwd}
                  onChange={(_, d) => change('pwd', d.value)}
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
