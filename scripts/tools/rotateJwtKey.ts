// npm run rotate-jwt-key [-- DATA_DIR] [-- --revoke-previous]: a new JWT signing key for the local stack.
//
// DATA_DIR/jwt.key becomes `<new kid> <new key> <since ms>` then the key that signed until now, so
// sessions signed with it stay valid for a token's lifetime (12 h) after the rotation and no longer
// (functions/auth/jwtKeys.ts); older keys are dropped. With --revoke-previous the key that signed
// until now is dropped too: every session it signed ends at once (a leaked key).
// The running stack reads the file at start: restart it to sign with the new key.
import { randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { derivedKid } from '../../functions/auth/jwtKeys.js';
import { assertPrivateKeyFile } from '../local/keys.js';

export interface RotateOptions {
  /** Drop the key that signed until now instead of keeping it for a token's lifetime. */
  revokePrevious?: boolean;
  now?: number;
  newKey?: string;
}

/** The file's lines after a rotation: the new key with its time, then (unless revoked) the previous signing key. */
export function rotatedKeyLines(
  current: string,
  { revokePrevious = false, now = Date.now(), newKey = randomBytes(48).toString('base64') }: RotateOptions = {},
): string {
  const first = current
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean);
  if (!first) throw new Error('The key file holds no key to rotate from');
  const words = first.split(/\s+/);
  const previous = words.length === 1 ? `${derivedKid(words[0])} ${words[0]}` : `${words[0]} ${words[1]}`;
  const kid = `k${now.toString(36)}${randomBytes(2).toString('hex')}`;
  return revokePrevious ? `${kid} ${newKey} ${now}\n` : `${kid} ${newKey} ${now}\n${previous}\n`;
}

export async function rotateJwtKeyFile(dataDir: string, options: RotateOptions = {}): Promise<string> {
  const file = join(resolve(dataDir), 'jwt.key');
  await assertPrivateKeyFile(file);
  const next = rotatedKeyLines(await readFile(file, 'utf8'), options);
  // Written aside and renamed over the file: a crash leaves the old file or the new one, never half.
  await writeFile(`${file}.next`, next, { mode: 0o600 });
  await rename(`${file}.next`, file);
  return next.split(' ')[0];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const revokePrevious = args.includes('--revoke-previous');
  const unknown = args.find((a) => a.startsWith('--') && a !== '--revoke-previous');
  const dataDir = args.find((a) => !a.startsWith('--')) || process.env.DATA_DIR || '.data';
  if (unknown) {
    console.error(`rotate-jwt-key: unknown option ${unknown} (only --revoke-previous)`);
    process.exitCode = 1;
  } else
    rotateJwtKeyFile(dataDir, { revokePrevious }).then(
      (kid) =>
        console.log(
          `New signing key ${kid} in ${join(dataDir, 'jwt.key')}; ${
            revokePrevious ? 'the previous key is dropped: every session ends' : 'the previous key verifies for 12 h'
          }. Restart the stack to use it.`,
        ),
      (error) => {
        console.error(`rotate-jwt-key: ${(error as Error).message}`);
        process.exitCode = 1;
      },
    );
}
