import { Field, Input } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

/**
 * The current password, asked again before adding a second factor from a session (docs/sign-in.md):
 * a session alone may be someone else's at the owner's desk. `error` is an English key (the form's
 * rule, or the server's "Current password is wrong" on the `password` field).
 */
export function CurrentPasswordField({
  value,
  error,
  onChange,
}: {
  value: string;
  error?: string;
  onChange(value: string): void;
}): ReactNode {
  const t = useT();
  return (
    <Field
      label={t('Current password')}
      required
      hint={t('A new way to sign in is added only with your password.')}
      validationMessage={error ? t(error) : undefined}
    >
      <Input
        type="password"
        name="current-password"
        autoComplete="current-password"
        value={value}
        onChange={(_, d) => onChange(d.value)}
      />
    </Field>
  );
}
