import { Field, Input } from '@fluentui/react-components';
import { ShieldKeyholeRegular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

/** A 6-digit code from an authenticator app, or a recovery code (`recovery`): what phones fill in. */
export function CodeInput({
  value,
  onChange,
  recovery = false,
  error,
  autoFocus = true,
}: {
  value: string;
  onChange(value: string): void;
  recovery?: boolean;
  error?: string;
  autoFocus?: boolean;
}): ReactNode {
  const t = useT();
  return (
    <Field
      label={recovery ? t('Recovery code') : t('Code from the authenticator app')}
      required
      validationMessage={error ? t(error) : undefined}
    >
      <Input
        name={recovery ? 'recovery-code' : 'totp-code'}
        autoComplete={recovery ? 'off' : 'one-time-code'}
        inputMode={recovery ? 'text' : 'numeric'}
        placeholder={recovery ? 'xxxxx-xxxxx' : '123456'}
        maxLength={recovery ? 20 : 7}
        contentBefore={<ShieldKeyholeRegular />}
        value={value}
        onChange={(_, d) => onChange(d.value)}
        autoFocus={autoFocus}
      />
    </Field>
  );
}
