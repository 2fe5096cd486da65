import type { ReactNode } from 'react';
import { ResourceTable } from '@/components/table';
import { useScopeFilters } from '@/components/table/useScopeFilters';
import { statementsResource } from './statementsResource';

/** '/bank/statements': every statement; `?sub_account_id=` or `?account_id=` scope it. */
export default function StatementsPage(): ReactNode {
  const { baseFilters, toolbar } = useScopeFilters([
    { field: 'account_id', label: 'Account #{id}' },
    { field: 'sub_account_id', label: 'Sub Account #{id}' },
  ]);
  return <ResourceTable resource={statementsResource} baseFilters={baseFilters} toolbar={toolbar} />;
}
