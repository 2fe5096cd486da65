import type { ReactNode } from 'react';
import { ResourceTable } from '@/components/table';
import { subtasksResource } from './subtasksResource';
import { useScopeFilters } from '@/components/table/useScopeFilters';

export default function SubtasksPage(): ReactNode {
  const { baseFilters, toolbar } = useScopeFilters([
    { field: 'operation_id', label: 'Operation #{id}' },
    { field: 'task_id', label: 'Task #{id}' },
  ]);
  return <ResourceTable resource={subtasksResource} baseFilters={baseFilters} toolbar={toolbar} />;
}
