import type { ReactNode } from 'react';
import { ResourceTable } from '@/components/table';
import { reportsResource } from './reportsResource';

/** '/reports': the reports, newest first, with Generate now for an operator. */
export default function ReportsPage(): ReactNode {
  return <ResourceTable resource={reportsResource} />;
}
