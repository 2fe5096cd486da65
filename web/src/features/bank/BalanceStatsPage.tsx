import type { ReactNode } from 'react';
import { ResourceTable } from '@/components/table';
import { useScopeFilters } from '@/components/table/useScopeFilters';
import { balanceStatsResource } from './balanceStatsResource';

/** '/bank/balance-stat': every balance change with its reconciliation; `?account_id=` scopes it. */
export default function BalanceStatsPage(): ReactNode {
  const { baseFilters, toolbar } = useScopeFilters([
    { field: 'account_id', label: 'Account #{id}' },
    { field: 'sub_account_id', label: 'Sub Account #{id}' },
  ]);
  return <ResourceTable resource={balanceStatsResource} baseFilters={baseFilters} toolbar={toolbar} />;
}
