import { Field, Input } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

export function NameStep({
  value,
  problem,
  showProblem,
  onChange,
}: {
  value: string;
  problem?: string;
  showProblem: boolean;
  onChange(name: string): void;
}): ReactNode {
  const t = useT();
  return (
    <Field
      label={t('Rule Name')}
      required
      validationMessage={showProblem && problem ? t(problem) : undefined}
      style={{ maxWidth: 480 }}
    >
      <Input name="name" value={value} onChange={(_, d) => onChange(d.value)} autoFocus />
    </Field>
  );
}
