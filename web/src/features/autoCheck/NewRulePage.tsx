import type { ReactNode } from 'react';
import { useT } from '@/i18n';
import { emptyRuleForm } from './ruleForm';
import { RuleEditor } from './RuleEditor';

const EMPTY = emptyRuleForm();

/** '/auto-checks/new': the rule stepper on an empty form. */
export default function NewRulePage(): ReactNode {
  const t = useT();
  return <RuleEditor title={t('New Rule')} initial={EMPTY} />;
}
