import type { NewUserBody, User } from '@shared/schemas/users';
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
