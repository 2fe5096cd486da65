import type { ReactNode } from 'react';
import { ResourceTable } from '@/components/table';
import { apiTokensResource } from './apiTokensResource';

/** '/super/users/tokens': API tokens for scripts and Prometheus, a New token dialog and Revoke per row. */
export default function ApiTokensPage(): ReactNode {
  return <ResourceTable resource={apiTokensResource} />;
}
