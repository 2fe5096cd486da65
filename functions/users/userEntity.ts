import type { StoredOf } from '../../shared/listFields.js';
import { userFields } from '../../shared/schemas/users.js';
import { defineEntity } from '../lib/db/entity.js';

/**
 * A stored user: the row of shared/schemas/users.ts plus what only storage keeps. `password_hash`
 * is hidden from lists and plain reads; only login reads it.
 */
export type UserRecord = StoredOf<
  typeof userFields,
  {
    /** scrypt hash with its parameters (password.ts); never the password. */
    password_hash: string;
    /** Bumped by logout and password changes; tokens carrying an older value are refused. */
    token_version: number;
  }
>;

export const userEntity = defineEntity<UserRecord>({
  type: 'user',
  fields: userFields,
  keys: ['role', 'enabled'],
  hidden: ['password_hash'],
});
