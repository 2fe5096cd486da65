import type { ReactNode } from 'react';
import { ResourceTable } from '@/components/table';
import { useScopeFilters } from '@/components/table/useScopeFilters';
import { videosResource } from './videosResource';

export default function BrowserVideosPage(): ReactNode {
  const { baseFilters, toolbar } = useScopeFilters([
    { field: 'raw_log_id', label: 'Raw Log #{id}' },
    { field: 'subtask_id', label: 'SubTask #{id}' },
  ]);
  return <ResourceTable resource={videosResource} baseFilters={baseFilters} toolbar={toolbar} />;
}
