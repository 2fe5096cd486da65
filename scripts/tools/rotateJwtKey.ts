// npm run rotate-jwt-key [-- DATA_DIR]: a new JWT signing key for the local stack.
//
// DATA_DIR/jwt.key becomes `<new kid> <new key>` then the key that signed until now, so sessions
// signed with it stay valid until they expire (functions/auth/jwtKeys.ts); older keys are dropped.
// The running stack reads the file at start: restart it to sign with the new key.
import { randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { derivedKid } from '../../functions/auth/jwtKeys.js';
import { assertPrivateKeyFile } from '../local/keys.js';

/** The file's lines after a rotation: the new key, then the previous signing key with its kid. */
export function rotatedKeyLines(current: string, newKey = randomBytes(48).toString('base64')): string {
  const first = current
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean);
  if (!first) throw new Error('The key file holds no key to rotate from');
  const words = first.split(/\s+/);
  const previous = words.length === 1 ? `${derivedKid(words[0])} ${words[0]}` : `${words[0]} ${words[1]}`;
  const kid = `k${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  return `${kid} ${newKey}\n${previous}\n`;
}

export async function rotateJwtKeyFile(dataDir: string): Promise<string> {
  const file = join(resolve(dataDir), 'jwt.key');
  await assertPrivateKeyFile(file);
  const next = rotatedKeyLines(await readFile(file, 'utf8'));
  // Written aside and renamed over the file: a crash leaves the old file or the new one, never half.
  await writeFile(`${file}.next`, next, { mode: 0o600 });
  await rename(`${file}.next`, file);
  return next.split(' ')[0];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dataDir = process.argv[2] || process.env.DATA_DIR || '.data';
  rotateJwtKeyFile(dataDir).then(
    (kid) => console.log(`New signing key ${kid} in ${join(dataDir, 'jwt.key')}; restart the stack to use it.`),
    (error) => {
      console.error(`rotate-jwt-key: ${(error as Error).message}`);
      process.exitCode = 1;
    },
  );
}
