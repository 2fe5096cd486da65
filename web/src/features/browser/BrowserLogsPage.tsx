import type { ReactNode } from 'react';
import { ResourceTable } from '@/components/table';
import { useScopeFilters } from '@/components/table/useScopeFilters';
import { rawLogsResource } from './rawLogsResource';

export default function BrowserLogsPage(): ReactNode {
  const { baseFilters, toolbar } = useScopeFilters([
    { field: 'business_id', label: 'CheckLog #{id}' },
    { field: 'subtask_id', label: 'SubTask #{id}' },
  ]);
  return <ResourceTable resource={rawLogsResource} baseFilters={baseFilters} toolbar={toolbar} />;
}
