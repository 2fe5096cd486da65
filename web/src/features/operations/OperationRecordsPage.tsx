import type { ReactNode } from 'react';
import { ResourceTable } from '@/components/table';
import { operationRecordsResource } from './operationRecordsResource';

export default function OperationRecordsPage(): ReactNode {
  return <ResourceTable resource={operationRecordsResource} />;
}
