import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'otplib';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../shared/errors.js';
import { api } from '../helpers/api.js';
import { type RunningStack, startStackProcess, stopStackProcess } from '../helpers/stackProcess.js';

// The second-factor policy (issue 43, docs/sign-in.md) on a stack of its own, started as `npm start`
// starts one with no AUTH_SECOND_FACTOR: the config's default, `super`, covers the first super user,
// who is sent to enrolment right after the password and holds no token until enrolled. The shared
// test stack runs with the policy off, which no test may change.

const PASSWORD = 'policy-test-pass-1';
const dataDir = await mkdtemp(join(tmpdir(), 'patrol-2fa-policy-'));
let stack: RunningStack | undefined;

afterAll(async () => {
  if (stack) await stopStackProcess(stack.child);
  if (!process.env.KEEP_TEST_DATA) await rm(dataDir, { recursive: true, force: true });
});

const codeAt = (secret: string, windows = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + windows * 30 });

describe('the policy auth.second_factor', () => {
  it('sends the first super user to enrolment, then everyone once the policy says all', async () => {
    stack = await startStackProcess({ dataDir, adminPassword: PASSWORD, env: { AUTH_SECOND_FACTOR: '' } });
    const client = api(stack.url);
    const post = (path: string, body?: unknown, token?: string) =>
      client.post(`/api/v1${path}`, { ...(body !== undefined ? { body } : {}), ...(token ? { token } : {}) });

    // What npm start prints about it.
    expect(readFileSync(stack.logFile, 'utf8')).toMatch(
      /2nd step: super users \(auth\.second_factor = super\): admin scans a QR code/,
    );

    const first = await post('/login', { username: 'admin', password: PASSWORD });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ enroll: { ticket: expect.any(String) } });
    const { ticket } = first.body.data.enroll;
    // The ticket is no session: nothing else answers to it.
    expect((await client.get('/api/v1/sites', { headers: { authorization: `Bearer ${ticket}` } })).status).toBe(401);
    // Nor is it a second-factor ticket.
    const wrongKind = await post('/login/second-factor', { ticket, method: 'totp', code: '123456' });
    expect(wrongKind.body.code).toBe(ErrorCode.SignInTicketInvalid);

    const started = await post('/me/totp', { ticket });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const secret: string = started.body.data.secret;
    const confirmed = await post('/me/totp/confirm', { ticket, code: await codeAt(secret) });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.data).toMatchObject({ jwt: expect.any(String), s: 'super' });
    expect(confirmed.body.data.recovery_codes).toHaveLength(10);
    const adminToken: string = confirmed.body.data.jwt;
    expect((await client.get('/api/v1/info', { token: adminToken })).body.data.username).toBe('admin');
    // The enrolment ended the sign-in: its ticket signs in no more.
    const again = await post('/me/totp/confirm', { ticket, code: await codeAt(secret, 1) });
    expect(again.body.code).toBe(ErrorCode.SignInTicketInvalid);

    // Under `super` an operator signs in with the password alone.
    const created = await post('/super/users', { username: 'oper1', password: PASSWORD, role: 'operator' }, adminToken);
    expect(created.status).toBe(200);
    expect((await post('/login', { username: 'oper1', password: PASSWORD })).body.data.jwt).toEqual(expect.any(String));

    // `all` covers everyone: the operator is sent to enrolment now.
    const config = (await client.get('/api/v1/super/system-config', { token: adminToken })).body.data.document;
    expect(config.auth).toEqual({ second_factor: 'super' });
    const saved = await post('/super/system-config', { ...config, auth: { second_factor: 'all' } }, adminToken);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const operator = await post('/login', { username: 'oper1', password: PASSWORD });
    expect(operator.body.data).toEqual({ enroll: { ticket: expect.any(String) } });

    // The enrolled admin is asked for the code, and a super's reset sends them back to enrolment.
    const adminAgain = await post('/login', { username: 'admin', password: PASSWORD });
    expect(adminAgain.body.data).toEqual({
      second_factor: { ticket: expect.any(String), methods: ['totp', 'recovery'] },
    });
    const adminId = (await client.get('/api/v1/super/users?username=admin', { token: adminToken })).body.data.result[0]
      .id;
    const reset = await post(`/super/users/${adminId}/factors/reset`, undefined, adminToken);
    expect(reset.status).toBe(200);
    expect((await client.get('/api/v1/info', { token: adminToken })).status).toBe(401);
    expect((await post('/login', { username: 'admin', password: PASSWORD })).body.data).toEqual({
      enroll: { ticket: expect.any(String) },
    });
  });
});
