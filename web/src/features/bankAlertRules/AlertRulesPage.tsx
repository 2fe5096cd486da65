import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { ResourceTable } from '@/components/table';
import { accountName } from './AlertRuleDialog';
import { refreshAlertRules, ruleAccountsQuery } from './alertRulesApi';
import { alertRulesResource } from './alertRulesResource';

/** '/bank/alert-rules' (issue 45 item 2): alert rules on bank figures, with the list protocol's table. */
export default function AlertRulesPage(): ReactNode {
  const client = useQueryClient();
  const accounts = useQuery(ruleAccountsQuery);
  const accountNames = useMemo(
    () => new Map((accounts.data ?? []).map((a) => [a.id, accountName(a)])),
    [accounts.data],
  );
  const resource = useMemo(
    () => alertRulesResource({ accountNames, changed: () => refreshAlertRules(client) }),
    [accountNames, client],
  );
  return <ResourceTable resource={resource} />;
}
