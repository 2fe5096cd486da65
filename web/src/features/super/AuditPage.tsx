import type { ReactNode } from 'react';
import { ResourceTable } from '@/components/table';
import { auditResource } from './auditResource';

/** '/super/system/audit': every write a user made, who, what, where from, and how it ended. */
export default function AuditPage(): ReactNode {
  return <ResourceTable resource={auditResource} />;
}
