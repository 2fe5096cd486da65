// Every route of the API, called the wrong way: unknown and out-of-range ids, bodies of the wrong
// shape, list queries with nonsense in every parameter. Whatever the route, a client mistake must
// come back as a 4xx envelope with a message, never a 500 (developers' guide, quality bar).
import { describe, expect, inject, it } from 'vitest';
import { router } from '../../functions/api.js';
import { api, login } from '../helpers/api.js';
import { fromIp, kit, uniqueIp, uniqueName } from '../helpers/authKit.js';

const stack = inject('stack');
const client = api(stack.url);

/** What a path parameter can be sent as: a well-formed id nobody has, and one past any safe integer. */
const IDS = ['987654321', '99999999999999999999'];
const KINDS = ['place-bets', 'no-such-kind'];
const BODIES: unknown[] = [{}, [], 'text', null, { name: { $ne: 1 }, id: -1, points: 'all', enable: 'yes' }];
const LIST_QUERIES = [
  'page=-1&page_size=abc',
  'sort=not-json&keyword=ab&keywordField=nope',
  'created_at=abc,def&id=>=x&enable=maybe&status=1,2,x&page_size=0',
];

/**
 * An empty system config is a right call that saves the defaults, and the default second-factor
 * policy (`super`) would send every test's admin to enrolment: the stack keeps its `off`.
 */
const keepPolicy = (pattern: string, body: unknown) =>
  pattern === '/super/system-config' && body && typeof body === 'object' && !Array.isArray(body)
    ? { ...body, auth: { second_factor: 'off' } }
    : body;

function pathsOf(pattern: string): string[] {
  let paths = [pattern];
  if (pattern.includes('*kind')) paths = KINDS.map((k) => pattern.replace('*kind', k));
  if (pattern.includes(':id')) paths = paths.flatMap((p) => IDS.map((id) => p.replace(':id', id)));
  return paths;
}

describe('no route answers a client mistake with a 500', () => {
  it('answers every wrong call with a 4xx envelope that says what is wrong', async () => {
    // A super user of its own, so the sweep's logout revokes nobody else's session.
    const k = kit(stack);
    const username = uniqueName('sweep');
    await k.createUser(username, 'sweep-pass-1', 'super');
    const token = await login(stack.url, username, 'sweep-pass-1');
    k.destroy();
    const from = fromIp(uniqueIp());

    // Logout last: afterwards the token is revoked and every call is a plain 401.
    const routes = [...router.routes].sort((a, b) => Number(a.pattern === '/logout') - Number(b.pattern === '/logout'));
    const failures: string[] = [];
    let calls = 0;
    for (const route of routes) {
      for (const path of pathsOf(route.pattern)) {
        const attempts =
          route.method === 'GET' || route.method === 'DELETE'
            ? LIST_QUERIES.map((q) => ({ url: `/api/v1${path}?${q}`, body: undefined as unknown }))
            : BODIES.map((body) => ({ url: `/api/v1${path}`, body: keepPolicy(route.pattern, body) }));
        for (const attempt of attempts) {
          const res = await client[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](attempt.url, {
            token,
            ...from,
            ...(attempt.body === undefined
              ? {}
              : { rawBody: JSON.stringify(attempt.body), headers: { 'content-type': 'application/json' } }),
          });
          calls++;
          const said = `${route.method} ${attempt.url} ${attempt.body === undefined ? '' : JSON.stringify(attempt.body)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`;
          if (res.status >= 500) failures.push(said);
          else if (res.status >= 400 && (typeof res.body?.msg !== 'string' || !res.body.msg || 'data' in res.body)) {
            failures.push(`no clear error envelope: ${said}`);
          }
        }
      }
    }
    expect(calls).toBeGreaterThan(200);
    expect(failures).toEqual([]);
  }, 120_000);

  it('refuses an over-long string or array in every body schema with 400 naming the field', async () => {
    const k = kit(stack);
    const username = uniqueName('long');
    await k.createUser(username, 'long-pass-1', 'super');
    const token = await login(stack.url, username, 'long-pass-1');
    k.destroy();
    const headers = fromIp(uniqueIp());
    const long = (n: number) => 'x'.repeat(n + 1);
    // Per body route: a body that is right but for one field past its maximum, and that field.
    const CASES: { method: 'post' | 'put'; path: string; body: unknown; field: string }[] = [
      { method: 'post', path: '/login', body: { username: long(100), password: 'x' }, field: 'username' },
      { method: 'post', path: '/login', body: { username: 'a', password: long(128) }, field: 'password' },
      { method: 'post', path: '/login', body: { username: 'a', password: 'b', captcha: long(100) }, field: 'captcha' },
      { method: 'post', path: '/pwd', body: { old_pwd: 'secret1', pwd: long(40) }, field: 'pwd' },
      { method: 'post', path: '/super/users', body: { username: long(40), password: 'secret1' }, field: 'username' },
      { method: 'put', path: '/super/users/987654321/pwd', body: { pwd: long(40) }, field: 'pwd' },
      { method: 'post', path: '/sites', body: { name: long(100), url: 'https://a.example' }, field: 'name' },
      { method: 'post', path: '/sites', body: { name: 'n', url: `https://a.example/${long(2048)}` }, field: 'url' },
      {
        method: 'post',
        path: '/sites',
        body: { name: 'n', url: 'https://a.example', accounts: [{ user: 'u', pwd: 'x'.repeat(300 * 1024) }] },
        field: 'accounts.0.pwd',
      },
      { method: 'put', path: '/sites/987654321', body: { name: long(100) }, field: 'name' },
      {
        method: 'post',
        path: '/sites/987654321/accounts',
        body: { accounts: [{ user: long(100), pwd: 'p' }] },
        field: 'accounts.0.user',
      },
      { method: 'put', path: '/sites/accounts/987654321', body: { pwd: long(128) }, field: 'pwd' },
      {
        method: 'post',
        path: '/sites/check',
        body: { sites: Array.from({ length: 1001 }, (_, i) => i + 1) },
        field: 'sites',
      },
      {
        method: 'post',
        path: '/sites/987654321/check',
        body: { points: Array(101).fill({ point: 1 }) },
        field: 'points',
      },
    ];
    const failures: string[] = [];
    for (const c of CASES) {
      const res = await client[c.method](`/api/v1${c.path}`, { token, headers, body: c.body });
      const extra = res.body?.extra ?? {};
      const said = Object.entries(extra).find(
        ([k]) => k === c.field || k.startsWith(`${c.field}.`) || c.field.startsWith(`${k}`),
      );
      if (res.status !== 400 || !said || !/length|max/i.test(String(said[1]))) {
        failures.push(`${c.method} ${c.path} ${c.field} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
