import { UserRole } from '../../shared/enums.js';
import { logger } from '../lib/logger.js';
import { UsernameTakenError } from './errors.js';
import { hashPassword } from './password.js';
import { userStore } from './store.js';

/**
 * Creates the first super user, only while there are no users at all (a fresh install):
 * a later restart never resets a password someone changed. Returns whether it created one.
 */
export async function ensureSuperUser({
  username,
  password,
}: {
  username: string;
  password: string;
}): Promise<boolean> {
  const store = userStore();
  if (await store.hasAnyUser()) return false;
  try {
    await store.create({
      username: username.trim(),
      nickname: username.trim(),
      role: UserRole.values.Super,
      password_hash: await hashPassword(password.trim()),
    });
  } catch (error) {
    // Two processes seeding one fresh table: the other one won.
    if (error instanceof UsernameTakenError) return false;
    throw error;
  }
  logger.info('created the first super user', { username });
  return true;
}
