import { Process, TestMode } from '@shared/enums';
import type { ReactNode } from 'react';
import { formatDate } from '@/app/format';
import { ResourceTable } from '@/components/table';
import { useScopeFilters } from '@/components/table/useScopeFilters';
import { t } from '@/i18n';
import { subtasksResource } from './subtasksResource';

export default function SubtasksPage(): ReactNode {
  const { baseFilters, toolbar } = useScopeFilters([
    { field: 'operation_id', label: 'Operation #{id}' },
    { field: 'task_id', label: 'Task #{id}' },
    // The home dashboard's cells and days open the list scoped to them.
    { field: 'site_id', label: 'Site #{id}' },
    { field: 'process', label: '{id}', kind: 'enum', show: (v) => t(Process.label(Number(v) as never)) },
    { field: 'mode', label: '{id}', kind: 'enum', show: (v) => TestMode.label(Number(v) as never) },
    { field: 'created_at', label: '{id}', kind: 'range', show: (v) => formatDate(Number(v.split(',')[0])) },
  ]);
  return <ResourceTable resource={subtasksResource} baseFilters={baseFilters} toolbar={toolbar} />;
}
