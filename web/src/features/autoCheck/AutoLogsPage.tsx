import { type ReactNode, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { pathOf } from '@/app/paths';
import { ResourceTable } from '@/components/table';
import { autoLogsResource } from './autoLogsResource';

/** '/auto-checks/logs': every rule's runs; Detail opens the rule. */
export default function AutoLogsPage(): ReactNode {
  const navigate = useNavigate();
  const resource = useMemo(
    () => autoLogsResource((ruleId) => navigate(pathOf('autoCheckRuleDetail', { ruleID: ruleId }))),
    [navigate],
  );
  return <ResourceTable resource={resource} />;
}
