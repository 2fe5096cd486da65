import { Button, Field, Input, Radio, RadioGroup } from '@fluentui/react-components';
import { Add20Regular, PersonRegular } from '@fluentui/react-icons';
import { Bank } from '@shared/enums';
import type { BankValue } from '@shared/schemas/bank';
import type { ReactNode } from 'react';
import { FormDialog } from '@/components/dialog';
import { useFormDialog } from '@/components/dialog/useFormDialog';
import { PasswordInput } from '@/features/super/PasswordInput';
import { useT } from '@/i18n';
import { createBankAccount } from './bankApi';
import { checkNewBankAccount, emptyNewBankAccount, type NewBankAccountForm } from './bankForms';

/** The NewBankAccount table action: a button and its dialog (bank, user, password); `onCreated` reloads. */
export function NewBankAccountDialog({ onCreated }: { onCreated: () => unknown }): ReactNode {
  const t = useT();
  const dialog = useFormDialog({
    initial: emptyNewBankAccount,
    check: checkNewBankAccount,
    save: createBankAccount,
    onDone: onCreated,
  });
  const { form, change, errors } = dialog;
  const message = (key: keyof NewBankAccountForm) => (errors[key] ? t(errors[key]) : undefined);

  return (
    <FormDialog
      state={dialog}
      modalType="alert"
      title={t('New Bank Account')}
      trigger={
        <Button appearance="primary" icon={<Add20Regular />}>
          {t('NewBankAccount')}
        </Button>
      }
    >
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
    </FormDialog>
  );
}
