import type { NewUserBody, UpdateUserBody, User } from '@shared/schemas/users';
import { request } from '@/api/request';

/** POST /super/users; a refused username comes back as `extra.username` for the form to show. */
export const createUser = (data: NewUserBody) =>
  request<User>({
    method: 'POST',
    url: '/super/users',
    data,
    successTip: 'Add user success',
    failureTip: 'Add user failed',
  });

/** PUT /super/users/{id}/pwd: the user's sessions end, so they sign in again with the new password. */
export const resetUserPassword = (user: Pick<User, 'id' | 'username'>, pwd: string) =>
  request<User>({
    method: 'PUT',
    url: `/super/users/${user.id}/pwd`,
    data: { pwd },
    successTip: 'Reset password success',
    failureTip: 'Reset password failed',
  });

/** PUT /super/users/{id}: nickname, role or enabled. Disabling ends the user's sessions at once. */
export const updateUser = (user: Pick<User, 'id' | 'username'>, data: UpdateUserBody) =>
  request<User>({
    method: 'PUT',
    url: `/super/users/${user.id}`,
    data,
    successTip: 'Update user success',
    failureTip: 'Update user failed',
  });

/**
 * POST /super/users/{id}/factors/reset: removes the user's authenticator app, recovery codes and
 * passkeys (a lost phone); the user's sessions end, and the next sign-in enrols again if required.
 */
export const resetUserFactors = (user: Pick<User, 'id' | 'username'>) =>
  request<{ totp_removed: boolean; passkeys_removed: number }>({
    method: 'POST',
    url: `/super/users/${user.id}/factors/reset`,
    successTip: 'Second factor reset',
    failureTip: 'Reset second factor failed',
  });
