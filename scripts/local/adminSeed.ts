import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FIRST_SUPER_USER } from '../../shared/constants.js';
import { password as passwordRule } from '../../shared/schemas/common.js';
import { generatePassword } from './keys.js';

export const ADMIN_USERNAME = FIRST_SUPER_USER;

export interface AdminSeedResult {
  /** The user was created now (the store had no users). */
  created: boolean;
  /** The password, when the user was created now. */
  password?: string;
  /** The password was generated (ADMIN_PASSWORD was not set). */
  generated: boolean;
  /** Where a generated password is kept. */
  passwordFile: string;
}

/** Why ADMIN_PASSWORD breaks the console's password rule (shared/schemas/common.ts), or undefined. */
export function adminPasswordProblem(given: string): string | undefined {
  const checked = passwordRule('ADMIN_PASSWORD is empty').safeParse(given);
  return checked.success ? undefined : `ADMIN_PASSWORD: ${checked.error.issues[0]?.message}`;
}

/**
 * Creates the super user `admin` on an empty store. A generated password is written to
 * DATA_DIR/admin-password.txt before the user exists and kept only if the user was created,
 * so that a crash in between cannot leave an account whose password nobody has, and a
 * restart never overwrites the file of the first run.
 */
export async function seedAdmin(
  dataDir: string,
  givenPassword: string | undefined,
  ensureSuperUser: (input: { username: string; password: string }) => Promise<boolean>,
): Promise<AdminSeedResult> {
  const passwordFile = join(dataDir, 'admin-password.txt');
  // A password the sign-in form would refuse would lock the only super user out.
  const problem = givenPassword ? adminPasswordProblem(givenPassword) : undefined;
  if (problem) throw new Error(problem);
  const generated = !givenPassword;
  const password = givenPassword || generatePassword();
  const pending = `${passwordFile}.pending`;
  if (generated) await writeFile(pending, `${password}\n`, { mode: 0o600 });
  let created = false;
  try {
    created = await ensureSuperUser({ username: ADMIN_USERNAME, password });
  } finally {
    if (generated && created) await rename(pending, passwordFile);
    else if (generated) await rm(pending, { force: true });
  }
  return { created, generated, passwordFile, ...(created ? { password } : {}) };
}
