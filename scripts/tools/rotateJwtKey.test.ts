import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { derivedKid, parseKeyLines } from '../../functions/auth/jwtKeys.js';
import { rotateJwtKeyFile } from './rotateJwtKey.js';

describe('rotating the local JWT key', () => {
  let dir = '';
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('puts a new key first and keeps only the one that signed until now, owner-readable', async () => {
    dir = await mkdtemp(join(tmpdir(), 'patrol-rotate-'));
    const file = join(dir, 'jwt.key');
    // A key file from before key ids: one bare key.
    await writeFile(file, 'bare-key-from-an-older-start-0123456789\n', { mode: 0o600 });

    const first = await rotateJwtKeyFile(dir);
    const second = await rotateJwtKeyFile(dir);

    const keys = parseKeyLines(await readFile(file, 'utf8'));
    expect(keys.map((k) => k.kid)).toEqual([second, first]);
    expect(second).not.toBe(first);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // The bare key's tokens were verifiable under its derived kid until the second rotation dropped it.
    expect(keys.map((k) => k.kid)).not.toContain(derivedKid('bare-key-from-an-older-start-0123456789'));
  });

  it('stamps the new key with its time, so the previous one verifies 12 h; --revoke-previous keeps only the new key', async () => {
    const file = join(dir, 'jwt.key');
    const now = Date.UTC(2026, 11, 7, 9, 0);
    const kept = await rotateJwtKeyFile(dir, { now });
    const keys = parseKeyLines(await readFile(file, 'utf8'));
    expect(keys[0].kid).toBe(kept);
    expect(keys[1].until).toBe(now + 12 * 3_600_000);

    const revoked = await rotateJwtKeyFile(dir, { revokePrevious: true, now });
    expect(parseKeyLines(await readFile(file, 'utf8')).map((k) => k.kid)).toEqual([revoked]);
  });
});
