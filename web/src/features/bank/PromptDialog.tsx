import { Button, Field, Input } from '@fluentui/react-components';
import { Edit16Regular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { FormDialog } from '@/components/dialog';
import { type FormCheck, useFormDialog } from '@/components/dialog/useFormDialog';
import { useT } from '@/i18n';
import type { PromptForm } from './bankForms';

export interface PromptDialogProps {
  /** Dialog title and the trigger's accessible name, e.g. 'Edit Webhook'. */
  title: string;
  label: string;
  placeholder?: string;
  hint?: string;
  /** What the input starts with (never a secret). */
  initial: string;
  check(form: PromptForm): FormCheck<PromptForm, string>;
  /** A caution about the value that does not refuse it (a short API key), shown while typing. */
  warn?(value: string): string | undefined;
  save(value: string): Promise<unknown>;
  onDone(): unknown;
}

/** A one-field prompt behind an edit button (the webhook and API key prompts of spec section 5). */
export function PromptDialog({
  title,
  label,
  placeholder,
  hint,
  initial,
  check,
  warn,
  save,
  onDone,
}: PromptDialogProps): ReactNode {
  const t = useT();
  const dialog = useFormDialog<PromptForm, string>({
    initial: () => ({ value: initial }),
    check,
    save,
    onDone,
  });
  const { form, change, errors } = dialog;
  const warning = errors.value ? undefined : warn?.(form.value);

  return (
    <FormDialog
      state={dialog}
      title={t(title)}
      trigger={
        <Button size="small" appearance="subtle" icon={<Edit16Regular />} aria-label={t(title)} title={t(title)} />
      }
    >
      <Field
        label={t(label)}
        required
        hint={hint ? t(hint) : undefined}
        validationState={errors.value ? 'error' : warning ? 'warning' : 'none'}
        validationMessage={errors.value ? t(errors.value) : warning ? t(warning) : undefined}
      >
        <Input
          autoFocus
          autoComplete="off"
          placeholder={placeholder}
          value={form.value}
          onChange={(_, d) => change('value', d.value)}
        />
      </Field>
    </FormDialog>
  );
}
