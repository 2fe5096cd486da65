import type { ReactNode } from 'react';
import { ResourceTable } from '@/components/table';
import { tasksResource } from './tasksResource';
import { useScopeFilters } from '@/components/table/useScopeFilters';

export default function TasksPage(): ReactNode {
  const { baseFilters, toolbar } = useScopeFilters([{ field: 'operation_id', label: 'Operation #{id}' }]);
  return <ResourceTable resource={tasksResource} baseFilters={baseFilters} toolbar={toolbar} />;
}
