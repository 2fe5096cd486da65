import type { UserRoleValue } from '../../shared/schemas/auth.js';
import { userFields } from '../../shared/schemas/users.js';
import { defineEntity } from '../lib/db/entity.js';

/** A stored user. `password_hash` is hidden from lists and plain reads; only login reads it. */
export interface UserRecord {
  id: number;
  username: string;
  nickname: string;
  role: UserRoleValue;
  /** scrypt hash with its parameters (password.ts); never the password. */
  password_hash: string;
  /** Bumped by logout and password changes; tokens carrying an older value are refused. */
  token_version: number;
  enabled: boolean;
  created_at: number;
  updated_at: number;
}

export const userEntity = defineEntity<UserRecord>({
  type: 'user',
  fields: userFields,
  keys: ['role', 'enabled'],
  hidden: ['password_hash'],
});
