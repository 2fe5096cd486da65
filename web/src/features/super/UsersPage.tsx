import type { ReactNode } from 'react';
import { ResourceTable } from '@/components/table';
import { usersResource } from './usersResource';

/** '/super/users/users': the console's users, a New User dialog and a password reset per row. */
export default function UsersPage(): ReactNode {
  return <ResourceTable resource={usersResource} />;
}
