import { SignJWT } from 'jose';
import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetClients } from '../lib/aws/clients.js';
import { resetJwtKeys } from './jwtKeys.js';
import { signToken, verifyToken } from './token.js';

const saved = { JWT_SECRET: process.env.JWT_SECRET, JWT_SECRET_ARN: process.env.JWT_SECRET_ARN };
const restore = (name: keyof typeof saved) => {
  if (saved[name] === undefined) delete process.env[name];
  else process.env[name] = saved[name];
};
beforeAll(() => {
  process.env.JWT_SECRET = 'unit-test-secret-unit-test-secret';
  delete process.env.JWT_SECRET_ARN;
  resetJwtKeys();
});
afterAll(() => {
  restore('JWT_SECRET');
  restore('JWT_SECRET_ARN');
  resetJwtKeys();
});

const header = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString());

describe('login tokens', () => {
  it('carry the user id, role and token version until they expire', async () => {
    const { jwt, expires_at } = await signToken({ id: 7, role: 'operator', token_version: 3 });
    const claims = await verifyToken(jwt);
    expect(claims).toMatchObject({ sub: 7, role: 'operator', ver: 3 });
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(expires_at).toBe(claims.exp * 1000);
    expect(expires_at).toBeGreaterThan(Date.now());
  });

  it('are refused once expired with a message telling the user to log in again', async () => {
    const { jwt } = await signToken({ id: 7, role: 'super', token_version: 0 }, Date.now() - 13 * 3600_000);
    await expect(verifyToken(jwt)).rejects.toMatchObject({
      status: 401,
      message: 'Login expired, please login again.',
    });
  });

  it('are refused when signed with another secret or altered', async () => {
    const forged = await new SignJWT({ role: 'super', ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuer('patrol')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('some-other-secret'));
    await expect(verifyToken(forged)).rejects.toMatchObject({ status: 401 });

    const { jwt } = await signToken({ id: 2, role: 'operator', token_version: 0 });
    const [h, p, s] = jwt.split('.');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    const promoted = Buffer.from(JSON.stringify({ ...payload, role: 'super' })).toString('base64url');
    await expect(verifyToken(`${h}.${promoted}.${s}`)).rejects.toMatchObject({ status: 401 });
    await expect(verifyToken('not-a-token')).rejects.toMatchObject({ status: 401 });
  });

  it('are refused when unsigned (alg none)', async () => {
    const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const none = `${enc({ alg: 'none' })}.${enc({ sub: '1', role: 'super', ver: 0, iss: 'patrol', exp: 9999999999 })}.`;
    await expect(verifyToken(none)).rejects.toMatchObject({ status: 401 });
  });
});

describe('login tokens across a key rotation (local key file)', () => {
  afterEach(() => {
    process.env.JWT_SECRET = 'unit-test-secret-unit-test-secret';
    resetJwtKeys();
  });

  it('name their key, and stay valid after a rotation until they expire; the new key signs', async () => {
    process.env.JWT_SECRET = 'k1 first-key-first-key-first-key-01';
    resetJwtKeys();
    const before = await signToken({ id: 3, role: 'operator', token_version: 0 });
    expect(header(before.jwt).kid).toBe('k1');

    // scripts/tools/rotateJwtKey.ts: the new key first, the previous one kept.
    process.env.JWT_SECRET = 'k2 second-key-second-key-second-k\nk1 first-key-first-key-first-key-01';
    resetJwtKeys();
    await expect(verifyToken(before.jwt)).resolves.toMatchObject({ sub: 3 });
    const after = await signToken({ id: 3, role: 'operator', token_version: 0 });
    expect(header(after.jwt).kid).toBe('k2');
    await expect(verifyToken(after.jwt)).resolves.toMatchObject({ sub: 3 });
  });

  it('refuses a token of a key rotated out twice, and one signed before the rotation once it expires', async () => {
    process.env.JWT_SECRET = 'k1 first-key-first-key-first-key-01';
    resetJwtKeys();
    const old = await signToken({ id: 3, role: 'operator', token_version: 0 });
    const expiring = await signToken({ id: 3, role: 'operator', token_version: 0 }, Date.now() - 12 * 3600_000 - 1000);

    process.env.JWT_SECRET = 'k3 third-key-third-key-third-key-3\nk2 second-key-second-key-second-k';
    resetJwtKeys();
    await expect(verifyToken(old.jwt)).rejects.toMatchObject({ status: 401 });

    process.env.JWT_SECRET = 'k2 second-key-second-key-second-k\nk1 first-key-first-key-first-key-01';
    resetJwtKeys();
    await expect(verifyToken(expiring.jwt)).rejects.toMatchObject({ message: 'Login expired, please login again.' });
  });

  it('still accepts a token from before key ids (no kid) signed with a key it holds', async () => {
    process.env.JWT_SECRET = 'legacy-bare-key-legacy-bare-key-00';
    resetJwtKeys();
    const legacy = await new SignJWT({ role: 'operator', ver: 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('9')
      .setIssuer('patrol')
      .setExpirationTime('1h')
      .setJti('00000000-0000-4000-8000-000000000000')
      .sign(new TextEncoder().encode('legacy-bare-key-legacy-bare-key-00'));
    await expect(verifyToken(legacy)).resolves.toMatchObject({ sub: 9 });
  });
});

describe('login tokens after a rotation, by its time (issue 43)', () => {
  afterEach(() => {
    process.env.JWT_SECRET = 'unit-test-secret-unit-test-secret';
    resetJwtKeys();
  });

  it('accept the previous key for a token lifetime (12 h) after the rotation, then refuse it', async () => {
    const rotatedAt = Date.UTC(2026, 11, 7, 9, 0);
    process.env.JWT_SECRET = 'k1 first-key-first-key-first-key-01';
    resetJwtKeys();
    // Signed a minute before the rotation: valid to rotatedAt + 11 h 59 min.
    const before = await signToken({ id: 3, role: 'operator', token_version: 0 }, rotatedAt - 60_000);
    process.env.JWT_SECRET = `k2 second-key-second-key-second-k ${rotatedAt}\nk1 first-key-first-key-first-key-01`;
    resetJwtKeys();
    await expect(verifyToken(before.jwt, rotatedAt + 11 * 3_600_000)).resolves.toMatchObject({ sub: 3 });
    // A token the leaked key signed after the rotation (a forgery): refused once the lifetime is over.
    const forged = await new SignJWT({ role: 'super', ver: 0 })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .setSubject('3')
      .setIssuer('patrol')
      .setIssuedAt(Math.floor((rotatedAt + 11 * 3_600_000) / 1000))
      .setExpirationTime(Math.floor((rotatedAt + 23 * 3_600_000) / 1000))
      .sign(new TextEncoder().encode('first-key-first-key-first-key-01'));
    await expect(verifyToken(forged, rotatedAt + 11 * 3_600_000 + 1)).resolves.toMatchObject({ sub: 3 });
    await expect(verifyToken(forged, rotatedAt + 12 * 3_600_000)).rejects.toMatchObject({ status: 401 });
    const after = await signToken({ id: 3, role: 'operator', token_version: 0 }, rotatedAt + 12 * 3_600_000);
    await expect(verifyToken(after.jwt, rotatedAt + 12 * 3_600_000)).resolves.toMatchObject({ sub: 3 });
  });

  it('refuse the previous key at once after a rotation with --revoke-previous (only the new key kept)', async () => {
    process.env.JWT_SECRET = 'k1 first-key-first-key-first-key-01';
    resetJwtKeys();
    const before = await signToken({ id: 3, role: 'operator', token_version: 0 });
    process.env.JWT_SECRET = `k2 second-key-second-key-second-k ${Date.now()}`;
    resetJwtKeys();
    await expect(verifyToken(before.jwt)).rejects.toMatchObject({ status: 401 });
  });
});

describe('login tokens with the key in Secrets Manager (cloud)', () => {
  const sm = mockClient(SecretsManagerClient);
  const versions: Record<string, string | undefined> = {};
  const madeAt: Record<string, number | undefined> = {};
  beforeAll(() => {
    process.env.JWT_SECRET_ARN = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:jwt-AbCdEf';
    delete process.env.JWT_SECRET;
    resetClients();
    resetJwtKeys();
    sm.on(GetSecretValueCommand).callsFake((input: { VersionStage: string }) => {
      const value = versions[input.VersionStage];
      if (value === undefined) throw new ResourceNotFoundException({ message: 'no such stage', $metadata: {} });
      const created = madeAt[input.VersionStage];
      return { SecretString: value, ...(created !== undefined ? { CreatedDate: new Date(created) } : {}) };
    });
  });
  afterAll(() => {
    sm.restore();
    delete process.env.JWT_SECRET_ARN;
    process.env.JWT_SECRET = 'unit-test-secret-unit-test-secret';
    resetClients();
    resetJwtKeys();
  });

  it('signs with AWSCURRENT and, after a rotation, verifies the token signed with what is now AWSPREVIOUS', async () => {
    versions.AWSCURRENT = JSON.stringify({ kid: 'initial', key: 'a'.repeat(64) });
    const before = await signToken({ id: 4, role: 'super', token_version: 1 });
    expect(header(before.jwt).kid).toBe('initial');

    versions.AWSPREVIOUS = versions.AWSCURRENT;
    versions.AWSCURRENT = JSON.stringify({ kid: 'r2', key: 'b'.repeat(64) });
    // A fresh instance, or one whose five-minute copy ran out.
    resetJwtKeys();
    const after = await signToken({ id: 4, role: 'super', token_version: 1 });
    expect(header(after.jwt).kid).toBe('r2');
    await expect(verifyToken(before.jwt)).resolves.toMatchObject({ sub: 4, role: 'super' });
    await expect(verifyToken(after.jwt)).resolves.toMatchObject({ sub: 4 });
  });

  it('verify with AWSPREVIOUS for a token lifetime after AWSCURRENT was made, then no longer', async () => {
    const rotatedAt = Date.UTC(2026, 11, 7, 9, 0);
    versions.AWSCURRENT = JSON.stringify({ kid: 'p1', key: 'e'.repeat(64) });
    versions.AWSPREVIOUS = undefined;
    resetJwtKeys();
    const before = await signToken({ id: 6, role: 'operator', token_version: 0 }, rotatedAt - 60_000);
    versions.AWSPREVIOUS = versions.AWSCURRENT;
    versions.AWSCURRENT = JSON.stringify({ kid: 'p2', key: 'f'.repeat(64) });
    madeAt.AWSCURRENT = rotatedAt;
    resetJwtKeys();
    await expect(verifyToken(before.jwt, rotatedAt + 6 * 3_600_000)).resolves.toMatchObject({ sub: 6 });
    await expect(verifyToken(before.jwt, rotatedAt + 12 * 3_600_000)).rejects.toMatchObject({ status: 401 });
    // The AWSPREVIOUS label taken off (docs/deploy.md): refused at once, once the copy is read again.
    versions.AWSPREVIOUS = undefined;
    resetJwtKeys();
    await expect(verifyToken(before.jwt, rotatedAt + 60_000)).rejects.toMatchObject({ status: 401 });
    madeAt.AWSCURRENT = undefined;
  });

  it('reads the keys again when a token names a kid newer than its copy', async () => {
    versions.AWSPREVIOUS = undefined;
    versions.AWSCURRENT = JSON.stringify({ kid: 'r3', key: 'c'.repeat(64) });
    resetJwtKeys();
    await signToken({ id: 5, role: 'operator', token_version: 0 });
    // Another instance already signs with the next key.
    versions.AWSPREVIOUS = versions.AWSCURRENT;
    versions.AWSCURRENT = JSON.stringify({ kid: 'r4', key: 'd'.repeat(64) });
    const fromElsewhere = await new SignJWT({ role: 'operator', ver: 0 })
      .setProtectedHeader({ alg: 'HS256', kid: 'r4' })
      .setSubject('5')
      .setIssuer('patrol')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('d'.repeat(64)));
    await expect(verifyToken(fromElsewhere)).resolves.toMatchObject({ sub: 5 });
  });
});
