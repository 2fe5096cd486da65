import type { ReactNode } from 'react';
import { ResourceTable } from '@/components/table';
import { notificationsResource } from './notificationsResource';

export default function NotificationsPage(): ReactNode {
  return <ResourceTable resource={notificationsResource} />;
}
