import { FIRST_SUPER_USER } from '../../shared/constants.js';
import { config } from '../lib/config.js';
import { logger } from '../lib/logger.js';
import { secretStageValue } from '../lib/managedSecret.js';
import { ensureSuperUser } from './seed.js';

/**
 * Cloud only: creates the first super user `admin` after a deploy (a CDK trigger that runs once
 * the table exists), with the password Secrets Manager generated into the stack's
 * AdminPasswordSecret. Only on an empty table: a later deploy, or a run after someone changed the
 * password, changes nothing. The password is read, hashed and never logged or returned.
 * (Locally the stack seeds the same user from ADMIN_PASSWORD or DATA_DIR/admin-password.txt.)
 */
export async function handler(): Promise<{ created: boolean }> {
  const secretArn = config.adminPasswordSecretArn;
  const password = await secretStageValue(secretArn, 'AWSCURRENT');
  if (!password) throw new Error('The admin password secret has no value');
  const created = await ensureSuperUser({ username: FIRST_SUPER_USER, password });
  if (!created) logger.info('users exist already: the first super user was left as it is');
  return { created };
}
