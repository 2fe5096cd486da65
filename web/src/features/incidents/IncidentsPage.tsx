import type { ReactNode } from 'react';
import { ResourceTable } from '@/components/table';
import { useScopeFilters } from '@/components/table/useScopeFilters';
import { incidentsResource } from './incidentsResource';

/**
 * '/incidents' (issue 27), under Message: the incidents, with the one ResourceTable. A parent's
 * children open here scoped to it (`?parent_id=<id>`, issue 45).
 */
export default function IncidentsPage(): ReactNode {
  const { baseFilters, toolbar } = useScopeFilters([{ field: 'parent_id', label: 'Children of incident #{id}' }]);
  return <ResourceTable resource={incidentsResource} baseFilters={baseFilters} toolbar={toolbar} />;
}
