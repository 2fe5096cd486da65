import { Field, Radio, RadioGroup } from '@fluentui/react-components';
import { UserRole } from '@shared/enums';
import type { UserRoleValue } from '@shared/schemas/auth';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

/** The user's role, one radio per spec role: the New User and Edit user dialogs both ask it. */
export function RoleField({
  value,
  onChange,
  validationMessage,
}: {
  value: UserRoleValue;
  onChange: (role: UserRoleValue) => void;
  validationMessage?: string;
}): ReactNode {
  const t = useT();
  return (
    <Field label={t('Role')} required validationMessage={validationMessage}>
      <RadioGroup layout="horizontal" value={value} onChange={(_, d) => onChange(d.value as UserRoleValue)}>
        {UserRole.options.map((o) => (
          <Radio key={o.value} value={o.value} label={t(o.label)} />
        ))}
      </RadioGroup>
    </Field>
  );
}
