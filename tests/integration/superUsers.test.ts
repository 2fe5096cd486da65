import { afterAll, describe, expect, inject, it } from 'vitest';
import { router } from '../../functions/api.js';
import { ErrorCode } from '../../shared/envelope.js';
import { login } from '../helpers/api.js';
import { kit, uniqueName } from '../helpers/authKit.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
const PASSWORD = 'op-pass-123';

afterAll(() => k.destroy());

describe('super users area', () => {
  it('is closed to operators with 403 and open to super users', async () => {
    const operator = uniqueName('oper');
    await k.createUser(operator, PASSWORD, 'operator');
    const operatorToken = await login(stack.url, operator, PASSWORD);

    const asOperator = [
      await client.get('/api/v1/super/users', { token: operatorToken }),
      await client.post('/api/v1/super/users', {
        token: operatorToken,
        body: { username: uniqueName('sneaky'), password: PASSWORD, role: 'super' },
      }),
      await client.put('/api/v1/super/users/1/pwd', { token: operatorToken, body: { pwd: 'taken-over-1' } }),
    ];
    for (const res of asOperator) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe(ErrorCode.Forbidden);
    }
    // The admin's password was not changed by the refused call.
    await expect(login(stack.url, 'admin', stack.adminPassword)).resolves.toEqual(expect.any(String));

    const asSuper = await client.get('/api/v1/super/users', { token: await k.admin() });
    expect(asSuper.status).toBe(200);
  });

  it('lists users with the list-query protocol and never shows password hashes', async () => {
    const nick = uniqueName('listed');
    await k.createUser(nick, PASSWORD);

    const res = await client.get(`/api/v1/super/users?keyword=${nick}&keywordField=username&page=1&page_size=10`, {
      token: await k.admin(),
    });

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ total_count: 1, page: 1, page_size: 10 });
    expect(res.body.data.result).toEqual([
      {
        id: expect.any(Number),
        username: nick,
        nickname: `Nick ${nick}`,
        role: 'operator',
        enabled: true,
        created_at: expect.any(Number),
        updated_at: expect.any(Number),
      },
    ]);
    const all = await client.get('/api/v1/super/users?page_size=0', { token: await k.admin() });
    expect(all.body.data.result.map((u: { username: string }) => u.username)).toContain('admin');
    expect(JSON.stringify(all.body)).not.toMatch(/password|scrypt|token_version/);
  });

  it('refuses an unknown list filter with 400', async () => {
    const res = await client.get('/api/v1/super/users?password_hash=x', { token: await k.admin() });
    expect(res.status).toBe(400);
  });

  it('creates a super user who can then use the super area', async () => {
    const username = uniqueName('boss');
    const res = await client.post('/api/v1/super/users', {
      token: await k.admin(),
      body: { username, password: PASSWORD, role: 'super' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ username, nickname: username, role: 'super', enabled: true });

    const token = await login(stack.url, username, PASSWORD);
    expect((await client.get('/api/v1/super/users', { token })).status).toBe(200);
  });

  it('refuses a username that is taken, in any letter case, with 409', async () => {
    const username = uniqueName('twin');
    await k.createUser(username, PASSWORD);
    const res = await client.post('/api/v1/super/users', {
      token: await k.admin(),
      body: { username: username.toUpperCase(), password: PASSWORD },
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: ErrorCode.Conflict, extra: { username: 'This username is already taken' } });
  });

  it('checks a new user with field messages', async () => {
    const res = await client.post('/api/v1/super/users', {
      token: await k.admin(),
      body: { username: 'a b', password: '123', role: 'root' },
    });
    expect(res.status).toBe(400);
    expect(res.body.extra).toEqual({
      username: 'Username may only contain letters, digits and . _ - @',
      password: 'min length is 6',
      role: 'Role must be super, operator or viewer',
    });
  });

  it("sets a user's password: their sessions end and the new password works", async () => {
    const username = uniqueName('reset');
    const id = await k.createUser(username, PASSWORD);
    const token = await login(stack.url, username, PASSWORD);

    const res = await client.put(`/api/v1/super/users/${id}/pwd`, {
      token: await k.admin(),
      body: { pwd: 'reset-pass-9' },
    });

    expect(res.status).toBe(200);
    expect((await client.get('/api/v1/info', { token })).status).toBe(401);
    await expect(login(stack.url, username, PASSWORD)).rejects.toThrow(/400/);
    await expect(login(stack.url, username, 'reset-pass-9')).resolves.toEqual(expect.any(String));
  });

  it('answers 404 when setting the password of an unknown user', async () => {
    const res = await client.put('/api/v1/super/users/999999/pwd', {
      token: await k.admin(),
      body: { pwd: 'whatever-1' },
    });
    expect(res.status).toBe(404);
  });

  it('answers 403 to an operator on every /super route of the API, changing nothing', async () => {
    const operator = uniqueName('oper');
    await k.createUser(operator, PASSWORD, 'operator');
    const token = await login(stack.url, operator, PASSWORD);
    const superRoutes = router.routes.filter((r) => r.pattern.startsWith('/super/'));
    // The sweep covers what the router holds, so a new super route is covered without a test edit.
    expect(superRoutes.map((r) => `${r.method} ${r.pattern}`)).toEqual(
      expect.arrayContaining(['PUT /super/users/:id', 'POST /super/system-config']),
    );
    const before = await client.get('/api/v1/super/system-config', { token: await k.admin() });

    for (const route of superRoutes) {
      const path = `/api/v1${route.pattern.replace(/[:*]\w+/g, '1')}`;
      const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
      const res = await client[method](path, {
        token,
        ...(method === 'get' || method === 'delete'
          ? {}
          : { body: { enabled: false, time_zone: 'UTC', pwd: 'x-pass-1' } }),
      });
      expect({ route: `${route.method} ${route.pattern}`, status: res.status, code: res.body?.code }).toEqual({
        route: `${route.method} ${route.pattern}`,
        status: 403,
        code: ErrorCode.Forbidden,
      });
    }
    const after = await client.get('/api/v1/super/system-config', { token: await k.admin() });
    expect(after.body.data).toEqual(before.body.data);
    await expect(login(stack.url, 'admin', stack.adminPassword)).resolves.toEqual(expect.any(String));
  });

  it("edits a user's nickname and role", async () => {
    const username = uniqueName('edit');
    const id = await k.createUser(username, PASSWORD);

    const res = await client.put(`/api/v1/super/users/${id}`, {
      token: await k.admin(),
      body: { nickname: '  New Nick  ', role: 'super' },
    });

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, username, nickname: 'New Nick', role: 'super', enabled: true });
    const token = await login(stack.url, username, PASSWORD);
    expect((await client.get('/api/v1/info', { token })).body.data).toMatchObject({
      nickname: 'New Nick',
      role: 'super',
    });
    expect((await client.get('/api/v1/super/users', { token })).status).toBe(200);
  });

  it('refuses an edit without any field, or with bad values, naming the field', async () => {
    const id = await k.createUser(uniqueName('bad'), PASSWORD);
    const empty = await client.put(`/api/v1/super/users/${id}`, { token: await k.admin(), body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('Give at least one of nickname, role and enabled');

    const bad = await client.put(`/api/v1/super/users/${id}`, {
      token: await k.admin(),
      body: { nickname: '  ', role: 'root', enabled: 'no' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.extra).toEqual({
      nickname: 'Please input nickname',
      role: 'Role must be super, operator or viewer',
      enabled: 'Enabled must be true or false',
    });
    const unknown = await client.put('/api/v1/super/users/999999', { token: await k.admin(), body: { enabled: true } });
    expect(unknown.status).toBe(404);
  });

  it('disabling a user ends their sessions at once and refuses their login; enabling lets them sign in again', async () => {
    const username = uniqueName('off');
    const id = await k.createUser(username, PASSWORD);
    const token = await login(stack.url, username, PASSWORD);
    expect((await client.get('/api/v1/info', { token })).status).toBe(200);

    const res = await client.put(`/api/v1/super/users/${id}`, { token: await k.admin(), body: { enabled: false } });

    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, enabled: false });
    const next = await client.get('/api/v1/info', { token });
    expect(next.status).toBe(401);
    expect(next.body.code).toBe(ErrorCode.Unauthorized);
    const refused = await client.post('/api/v1/login', { body: { username, password: PASSWORD } });
    expect(refused.status).toBe(403);

    await client.put(`/api/v1/super/users/${id}`, { token: await k.admin(), body: { enabled: true } });
    // The old token stays dead: re-enabling does not bring back sessions that were ended.
    expect((await client.get('/api/v1/info', { token })).status).toBe(401);
    const fresh = await login(stack.url, username, PASSWORD);
    expect((await client.get('/api/v1/info', { token: fresh })).status).toBe(200);
  });

  it('refuses a super user disabling or demoting themself, and changes nothing', async () => {
    const username = uniqueName('self');
    const id = await k.createUser(username, PASSWORD, 'super');
    const token = await login(stack.url, username, PASSWORD);

    const disable = await client.put(`/api/v1/super/users/${id}`, { token, body: { enabled: false } });
    const demote = await client.put(`/api/v1/super/users/${id}`, { token, body: { role: 'operator' } });

    expect(disable.status).toBe(400);
    expect(disable.body.extra).toEqual({ enabled: 'You cannot disable yourself' });
    expect(demote.status).toBe(400);
    expect(demote.body.extra).toEqual({ role: 'You cannot demote yourself' });
    expect((await client.get('/api/v1/info', { token })).body.data).toMatchObject({ role: 'super' });
    // Their own nickname is theirs to change.
    const rename = await client.put(`/api/v1/super/users/${id}`, { token, body: { nickname: 'Me' } });
    expect(rename.body.data).toMatchObject({ nickname: 'Me', role: 'super', enabled: true });
  });
});
