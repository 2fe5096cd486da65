// API tokens of the super area (issue 46 item 2): '/super/users/tokens'. The list never holds a
// token, only its first characters; a new one is shown once by its dialog.
import { Badge } from '@fluentui/react-components';
import { type ApiToken, ApiTokenScope, apiTokenListFields } from '@shared/schemas/apiTokens';
import { col, defineResource } from '@/components/table';
import { formatDateTime } from '@/app/format';
import { t } from '@/i18n';
import { NewTokenDialog } from './NewTokenDialog';
import { RevokeTokenButton } from './RevokeTokenButton';

/** Revoked, expired or active, as the row stands now. */
export function tokenState(token: Pick<ApiToken, 'revoked_at' | 'expiry'>, now = Date.now()) {
  if (token.revoked_at) return 'Revoked';
  return token.expiry <= now ? 'Expired' : 'Active';
}

export const apiTokensResource = defineResource<ApiToken>({
  name: 'superTokens',
  endpoint: '/super/tokens',
  listFields: apiTokenListFields,
  title: 'API tokens',
  rowId: (r) => r.id,
  defaultSort: { field: 'created_at', order: 'desc' },
  failureTip: 'Fetch tokens failed.',
  columns: [
    col.text('name', 'Name', { searchable: true, filter: true, sortable: true }),
    col.custom('state', 'State', {
      text: (r) => t(tokenState(r)),
      render: (r) => {
        const state = tokenState(r);
        return (
          <Badge appearance="tint" color={state === 'Active' ? 'success' : 'subtle'}>
            {t(state)}
          </Badge>
        );
      },
    }),
    col.text('prefix', 'Prefix'),
    col.enum('scope', 'Scope', ApiTokenScope, { filter: true }),
    col.user('creator', 'Creator'),
    col.datetime('expiry', 'Expires at', { sortable: true }),
    col.custom('last_used_at', 'Last used', {
      text: (r) => (r.last_used_at ? formatDateTime(r.last_used_at) : t('Never')),
    }),
  ],
  actions: [{ label: 'New token', render: ({ refetch }) => <NewTokenDialog onCreated={refetch} /> }],
  rowActions: [
    { label: 'Revoke', render: (token, { refetch }) => <RevokeTokenButton token={token} onDone={refetch} /> },
  ],
});
