import type { ReactNode } from 'react';
import { ResourceTable } from '@/components/table';
import { incidentsResource } from './incidentsResource';

/** '/incidents' (issue 27), under Message: the incidents, with the one ResourceTable. */
export default function IncidentsPage(): ReactNode {
  return <ResourceTable resource={incidentsResource} />;
}
