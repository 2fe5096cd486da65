import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { ResourceTable } from '@/components/table';
import { siteAccountsResource } from './siteAccountsResource';

/** '/sites/accounts': every site account. */
export default function SiteAccountsPage(): ReactNode {
  const client = useQueryClient();
  const resource = useMemo(() => siteAccountsResource(client), [client]);
  return <ResourceTable resource={resource} />;
}
