import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken, verifyToken } from './token.js';

const saved = process.env.JWT_SECRET;
beforeAll(() => {
  process.env.JWT_SECRET = 'unit-test-secret-unit-test-secret';
});
afterAll(() => {
  if (saved === undefined) delete process.env.JWT_SECRET;
  else process.env.JWT_SECRET = saved;
});

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
