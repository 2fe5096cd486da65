import { InfoButton } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';

/** Fluent's info button in a column header; pressing it shows what the column means (e.g. BusinessID). */
export function ColumnHelp({ label, text }: { label: string; text: string }): ReactNode {
  const t = useT();
  return <InfoButton size="small" aria-label={`${label} · ${t('Help')}`} info={text} />;
}
