import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, SCRYPT_PARAMS, verifyPassword } from './password.js';

describe('password hashing', () => {
  it('accepts the password it hashed and refuses any other', async () => {
    const hash = await hashPassword('correct horse');
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct hors', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('stores the scrypt parameters and a salt, never the password', async () => {
    const hash = await hashPassword('s3cret-pass');
    const { N, r, p } = SCRYPT_PARAMS;
    expect(hash).toMatch(new RegExp(`^scrypt\\$${N}\\$${r}\\$${p}\\$[A-Za-z0-9+/=]+\\$[A-Za-z0-9+/=]+$`));
    expect(hash).not.toContain('s3cret-pass');
  });

  it('gives two users with the same password different hashes', async () => {
    expect(await hashPassword('same-password')).not.toBe(await hashPassword('same-password'));
  });

  it('still verifies a hash made with older, cheaper parameters and flags it for rehash', async () => {
    // A hash from an earlier cost setting (N = 2^10), built by hand with the same scheme.
    const { scryptSync } = await import('node:crypto');
    const salt = Buffer.from('0123456789abcdef');
    const key = scryptSync('legacy-pass', salt, 32, { N: 1024, r: 8, p: 1 });
    const old = `scrypt$1024$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
    expect(await verifyPassword('legacy-pass', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword('x'))).toBe(false);
  });

  it('never matches a malformed or tampered hash', async () => {
    const hash = await hashPassword('abcdef');
    expect(await verifyPassword('abcdef', 'plain-text')).toBe(false);
    expect(
      await verifyPassword(
        'abcdef',
        hash.replace(/[^$]+$/, () => 'AAAA'),
      ),
    ).toBe(false);
    expect(
      await verifyPassword(
        'abcdef',
        hash.replace(/^scrypt\$\d+/, () => 'scrypt$3'),
      ),
    ).toBe(false);
  });
});
