import { Spinner } from '@fluentui/react-components';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { LoadFailedPanel } from '@/app/PageHeader';
import { useT } from '@/i18n';
import { FETCH_RULE_FAILED, ruleItemsQuery, ruleQuery } from './autoCheckApi';
import { RuleEditor } from './RuleEditor';
import { ruleToForm } from './ruleForm';

/** '/auto-checks/rules/{ruleID}': the rule stepper loaded from the rule (points read as {process, modes}). */
export default function RuleDetailPage(): ReactNode {
  const t = useT();
  const id = Number(useParams().ruleID);
  const rule = useQuery(ruleQuery(id));
  const items = useQuery(ruleItemsQuery(id));
  const initial = useMemo(() => (rule.data ? ruleToForm(rule.data) : null), [rule.data]);
  const names = useMemo(
    () => Object.fromEntries((items.data ?? []).flatMap((i) => (i.name ? [[i.id, i.name]] : []))),
    [items.data],
  );
  if (rule.isError) return <LoadFailedPanel message={t(FETCH_RULE_FAILED)} />;
  if (!initial || items.isPending) return <Spinner label={t('Loading...')} />;
  // Keyed by rule: another rule's page starts from its own form, not this one's edits.
  return (
    <RuleEditor
      key={id}
      ruleId={id}
      title={t('Rule {name}', { name: rule.data?.name ?? '' })}
      initial={initial}
      initialNames={names}
    />
  );
}
