// Every route of the API, called by a viewer: each one that writes or reveals a secret answers 403
// with the read-only message (or the super area's), and nothing else lets a viewer through except
// the own-session writes listed below. The route list is the router's own, so a new route is swept
// the moment it is declared.
import { describe, expect, inject, it } from 'vitest';
import { rootRouter, router } from '../../functions/api.js';
import { lowestRole } from '../../functions/lib/http/router.js';
import { ErrorCode } from '../../shared/errors.js';
import { api, login } from '../helpers/api.js';
import { fromIp, kit, uniqueIp, uniqueName } from '../helpers/authKit.js';

const stack = inject('stack');
const client = api(stack.url);

/** Writes a viewer may make: its own sessions, password, Telegram link and second factors, nothing shared. */
const VIEWER_WRITES = [
  'POST /logout',
  'POST /pwd',
  'POST /telegram/link-code',
  'DELETE /telegram/link',
  'POST /me/passkeys/options',
  'POST /me/passkeys',
  'PUT /me/passkeys/*id',
  'DELETE /me/passkeys/*id',
  'DELETE /me/totp',
  'POST /me/recovery-codes',
];

const pathOf = (pattern: string) => pattern.replace(/:(\w+)/g, '987654321').replace(/\*(\w+)/g, 'login');

describe('a viewer', () => {
  it('is refused every write and every reveal with 403 and a clear message', async () => {
    const k = kit(stack);
    const username = uniqueName('viewer');
    await k.createUser(username, 'viewer-pass-1', 'viewer');
    const token = await login(stack.url, username, 'viewer-pass-1');
    k.destroy();
    const from = fromIp(uniqueIp());

    const signedIn = router.routes.filter((r) => r.access === 'user' || r.access === 'super');
    const refused = signedIn.filter((r) => lowestRole(r) !== 'viewer');
    const open = signedIn.filter((r) => lowestRole(r) === 'viewer');
    // What a viewer may call: reads without a secret, and the own-session writes, nothing else.
    for (const r of open.filter((r) => r.method !== 'GET')) expect(VIEWER_WRITES).toContain(`${r.method} ${r.pattern}`);
    // No read open to a viewer is a reveal (an audited read); a write may name its audit action.
    for (const r of open.filter((r) => r.method === 'GET')) expect(r.audit ?? undefined).toBeUndefined();
    // The sweep covers every write and every audited read (reveal) of the API.
    const reveals = refused.filter((r) => r.method === 'GET' && r.access !== 'super');
    expect(reveals.length).toBeGreaterThanOrEqual(4);

    const failures: string[] = [];
    for (const route of refused) {
      const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
      const res = await client[method](`/api/v1${pathOf(route.pattern)}`, {
        token,
        ...from,
        ...(method === 'get' || method === 'delete' ? {} : { body: {} }),
      });
      const expected = route.access === 'super' ? ErrorCode.Forbidden : ErrorCode.ReadOnlyRole;
      if (res.status !== 403 || res.body?.code !== expected || !/super users only|Viewer/.test(res.body?.msg ?? '')) {
        failures.push(`${route.method} ${route.pattern} -> ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(refused.filter((r) => r.method !== 'GET').length).toBeGreaterThanOrEqual(30);

    // And reads work: the sites list and the viewer's own profile, with its role.
    expect((await client.get('/api/v1/sites', { token, ...from })).status).toBe(200);
    expect((await client.get('/api/v1/info', { token, ...from })).body.data).toMatchObject({ role: 'viewer' });
    // Routes outside /api/v1 are machine webhooks with keys of their own, never a user's.
    expect(rootRouter.routes.every((r) => typeof r.access === 'object' || r.access === 'public')).toBe(true);
  });
});
