// User management (spec section 2: '/super/users/users'); payloads per shared/schemas/users.
// Row actions: Edit (nickname, role, enabled), the Enabled switch, Reset password, Reset second factor.
import { Badge } from '@fluentui/react-components';
import { UserRole } from '@shared/enums';
import { type User, userFields } from '@shared/schemas/users';
import { col, defineResource } from '@/components/table';
import { t } from '@/i18n';
import { EditUserDialog } from './EditUserDialog';
import { NewUserDialog } from './NewUserDialog';
import { ResetFactorsButton } from './ResetFactorsButton';
import { ResetPasswordDialog } from './ResetPasswordDialog';
import { updateUser } from './usersApi';

export const usersResource = defineResource<User>({
  name: 'superUsers',
  endpoint: '/super/users',
  listFields: userFields,
  title: 'Users',
  rowId: (u) => u.id,
  defaultSort: { field: 'created_at', order: 'desc' },
  failureTip: 'Fetch users failed.',
  columns: [
    col.number('id', 'ID', { sortable: true }),
    col.text('username', 'Username', { searchable: true, filter: true, sortable: true }),
    col.text('nickname', 'Nickname', { searchable: true, filter: true }),
    col.enum('role', 'Role', UserRole, {
      filter: true,
      render: (u) => (
        <Badge appearance="tint" color={u.role === UserRole.values.Super ? 'brand' : 'informative'}>
          {t(UserRole.label(u.role))}
        </Badge>
      ),
    }),
    // Disabling ends the user's sessions at once; the server refuses one's own row and the last super.
    col.boolean('enabled', 'Enabled', { filter: true, toggle: (u, enabled) => updateUser(u, { enabled }) }),
    col.datetime('created_at', 'Created At', { sortable: true, filter: 'range' }),
    col.datetime('updated_at', 'Updated At', { sortable: true, filter: 'range' }),
  ],
  actions: [{ label: 'NewUser', render: ({ refetch }) => <NewUserDialog onCreated={refetch} /> }],
  rowActions: [
    { label: 'Edit', render: (user, { refetch }) => <EditUserDialog user={user} onDone={refetch} /> },
    {
      label: 'Reset password',
      render: (user, { refetch }) => <ResetPasswordDialog user={user} onDone={refetch} />,
    },
    {
      label: 'Reset second factor',
      render: (user, { refetch }) => <ResetFactorsButton user={user} onDone={refetch} />,
    },
  ],
});
