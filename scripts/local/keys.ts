import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';

/**
 * Reads a key kept in DATA_DIR, creating it on first use. Kept, not regenerated, because
 * a new JWT key logs everyone out and a new secrets key makes stored site passwords unreadable.
 * The file holds `bytes` random bytes, base64 encoded, on one line.
 */
export async function ensureKeyFile(path: string, bytes = 32): Promise<string> {
  try {
    const existing = (await readFile(path, 'utf8')).trim();
    if (existing) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(bytes).toString('base64');
  // `wx` so that two processes starting on one directory cannot each write a different key.
  try {
    await writeFile(path, `${key}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await readFile(path, 'utf8')).trim();
    throw error;
  }
}

/** A password the spec accepts (6-40 characters) with ~120 bits of entropy, easy to copy. */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}
