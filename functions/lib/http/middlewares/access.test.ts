import { describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../../../shared/errors.js';
import { apiChain } from '../../../../tests/helpers/apiEvent.js';
import { UnauthorizedError } from '../../errors.js';
import { type AuthUser, Router, apiKeyAccess } from '../router.js';
import { access } from './access.js';
import { apiState } from './apiState.js';
import { routing } from './routing.js';

const users: Record<string, AuthUser> = {
  'user-token': { id: 1, username: 'u', nickname: 'U', role: 'operator' },
  'super-token': { id: 2, username: 's', nickname: 'S', role: 'super' },
  'viewer-token': { id: 3, username: 'v', nickname: 'V', role: 'viewer' },
};
const authenticate = async (token: string) => {
  const user = users[token];
  if (!user) throw new UnauthorizedError('Invalid login token, please login again.');
  return user;
};
const verify = vi.fn(async (key: string) => (key === 'right-key' ? { id: 'bank-1' } : undefined));

const router = new Router()
  .get('/open', () => 'open', { access: 'public' })
  .get('/mine', () => 'mine')
  .get('/super', () => 'super', { access: 'super' })
  .put('/mine', () => 'changed')
  .get('/mine/secret', () => 'secret', { audit: { action: 'mine.secret.reveal' } })
  .post('/mine/session', () => 'own', { role: 'viewer' })
  // A test-only route of the api-key kind, as the bank webhook will declare it.
  .post('/hook', () => 'hook', { access: apiKeyAccess(verify, { name: 'test-hook', limit: 2, windowSeconds: 60 }) });

const call = apiChain([routing(router), access(authenticate)], (_e, context) => {
  const { user, caller } = apiState({ context });
  return { user: user?.username ?? null, caller: caller?.id ?? null };
});
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('access', () => {
  it('lets anyone call a public route', async () => {
    expect((await call({ path: '/open' })).status).toBe(200);
  });

  it('asks for a login on a user route without a token, and passes the user on with one', async () => {
    expect(await call({ path: '/mine' })).toMatchObject({
      status: 401,
      body: { code: ErrorCode.Unauthorized, msg: 'Please log in first' },
    });
    expect(await call({ path: '/mine', headers: bearer('nonsense') })).toMatchObject({ status: 401 });
    expect((await call({ path: '/mine', headers: bearer('user-token') })).body.data).toEqual({
      user: 'u',
      caller: null,
    });
  });

  it('checks the super role on the server', async () => {
    expect(await call({ path: '/super', headers: bearer('user-token') })).toMatchObject({
      status: 403,
      body: { code: ErrorCode.Forbidden },
    });
    expect((await call({ path: '/super', headers: bearer('super-token') })).status).toBe(200);
  });

  it('lets a viewer read, and refuses its writes and reveals with 403 and what to do', async () => {
    const viewer = bearer('viewer-token');
    expect((await call({ path: '/mine', headers: viewer })).status).toBe(200);
    for (const req of [{ method: 'PUT', path: '/mine' }, { path: '/mine/secret' }]) {
      const res = await call({ ...req, headers: viewer });
      expect(res).toMatchObject({ status: 403, body: { code: ErrorCode.ReadOnlyRole } });
      expect(res.body.msg).toMatch(/Viewer.*Operator role/);
    }
    expect((await call({ method: 'PUT', path: '/mine', headers: bearer('user-token') })).status).toBe(200);
    expect((await call({ path: '/mine/secret', headers: bearer('user-token') })).status).toBe(200);
  });

  it('lets a viewer call a write the route declares open to viewers (its own session)', async () => {
    expect((await call({ method: 'POST', path: '/mine/session', headers: bearer('viewer-token') })).status).toBe(200);
  });

  it('refuses the super area to a viewer as to an operator', async () => {
    expect(await call({ path: '/super', headers: bearer('viewer-token') })).toMatchObject({
      status: 403,
      body: { code: ErrorCode.Forbidden },
    });
  });

  it('refuses an api-key route without a key with 401, before asking the verifier', async () => {
    verify.mockClear();
    const res = await call({ method: 'POST', path: '/hook', headers: bearer('super-token') });
    expect(res).toMatchObject({ status: 401, body: { code: ErrorCode.Unauthorized } });
    expect(res.body.msg).toMatch(/x-api-key/);
    expect(verify).not.toHaveBeenCalled();
  });

  it('refuses an api-key route with a wrong key with 401', async () => {
    const res = await call({ method: 'POST', path: '/hook', headers: { 'X-Api-Key': 'wrong-key' } });
    expect(res).toMatchObject({ status: 401, body: { code: ErrorCode.Unauthorized, msg: 'Invalid API key' } });
    expect(verify).toHaveBeenCalledWith('wrong-key');
  });
  // A right key, and the rate limit, count in DynamoDB: tests/integration/apiKeyAccess.test.ts.
});
