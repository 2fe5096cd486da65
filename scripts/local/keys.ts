import { randomBytes } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';

/** A key file others can read: refused rather than fixed, because it may already have been read. */
export class KeyFileExposedError extends Error {
  override name = 'KeyFileExposedError';
  constructor(path: string, mode: number) {
    super(
      `Key file ${path} is readable by others (mode ${(mode & 0o777).toString(8).padStart(3, '0')}). ` +
        `Treat it as leaked: replace it, or if you are sure nobody read it, run: chmod 600 ${path}`,
    );
  }
}

/** Refuses a key file whose group or others have any access. */
export async function assertPrivateKeyFile(path: string): Promise<void> {
  const { mode } = await stat(path);
  if (mode & 0o077) throw new KeyFileExposedError(path, mode);
}

/**
 * Reads a key kept in DATA_DIR, creating it on first use. Kept, not regenerated, because
 * a new JWT key logs everyone out and a new secrets key makes stored site passwords unreadable.
 * The file holds `bytes` random bytes, base64 encoded, on one line, readable by its owner only.
 */
export async function ensureKeyFile(path: string, bytes = 32): Promise<string> {
  try {
    const existing = (await readFile(path, 'utf8')).trim();
    if (existing) {
      await assertPrivateKeyFile(path);
      return existing;
    }
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
