import type { ApiToken, NewApiToken, NewApiTokenBody } from '@shared/schemas/apiTokens';
import { request } from '@/api/request';

/** POST /super/tokens: the answer holds the token itself, this once. */
export const createApiToken = (data: NewApiTokenBody) =>
  request<NewApiToken>({
    method: 'POST',
    url: '/super/tokens',
    data,
    successTip: 'Token created',
    failureTip: 'Create token failed',
  });

/** DELETE /super/tokens/{id}: the token stops working at once. */
export const revokeApiToken = (token: Pick<ApiToken, 'id'>) =>
  request<ApiToken>({
    method: 'DELETE',
    url: `/super/tokens/${token.id}`,
    successTip: 'Token revoked',
    failureTip: 'Revoke token failed',
  });
