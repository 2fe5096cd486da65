// The second factor through the shared stack (issue 43, docs/sign-in.md). The stack's policy is
// `off` and stays so (every test file signs in as admin): these users enrol of their own accord,
// which works under any policy. The policy's redirect to enrolment: tests/restarts/secondFactorPolicy.test.ts.
// Codes come from otplib with the secret the API answered, as an authenticator app makes them; a
// code of the next 30 s window (which the server also accepts) stands for "a later code" without
// waiting for the clock.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ErrorCode } from '../../shared/errors.js';
import { FACTOR_LOCK_AFTER } from '../../functions/auth/factors.js';
import { AUTH_LIMITS } from '../../functions/auth/rateLimits.js';
import { login } from '../helpers/api.js';
import { fromIp, kit, uniqueIp, uniqueName } from '../helpers/authKit.js';
import { withinOneWindow } from '../helpers/until.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
const PASSWORD = 'factor-pass-1';

/** The code an app shows `windows` windows from now (0: now). */
const codeAt = (secret: string, windows = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + windows * 30 });

/** A fresh operator with TOTP enrolled through a session: its name, id, secret and recovery codes. */
async function enrolledUser(prefix: string) {
  const username = uniqueName(prefix);
  const id = await k.createUser(username, PASSWORD);
  const token = await login(stack.url, username, PASSWORD);
  const started = await client.post('/api/v1/me/totp', { ...fromIp(uniqueIp()), token, body: { password: PASSWORD } });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const secret: string = started.body.data.secret;
  const confirmed = await client.post('/api/v1/me/totp/confirm', {
    ...fromIp(uniqueIp()),
    token,
    body: { code: await codeAt(secret) },
  });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  return { username, id, secret, token, recovery: confirmed.body.data.recovery_codes as string[] };
}

const firstStep = (username: string, ip = uniqueIp()) =>
  client.post('/api/v1/login', { body: { username, password: PASSWORD }, ...fromIp(ip) });
const secondStep = (body: { ticket: string; method: string; code: string }, ip = uniqueIp()) =>
  client.post('/api/v1/login/second-factor', { body, ...fromIp(ip) });

beforeAll(async () => {
  await k.admin();
});
afterAll(() => k.destroy());

describe('TOTP enrolment with a session', () => {
  it('answers a base32 secret and its otpauth URL, and counts only once a first code confirms it', async () => {
    const username = uniqueName('enrol');
    await k.createUser(username, PASSWORD);
    const token = await login(stack.url, username, PASSWORD);

    const started = await client.post('/api/v1/me/totp', {
      ...fromIp(uniqueIp()),
      token,
      body: { password: PASSWORD },
    });
    expect(started.status).toBe(200);
    const { secret, otpauth_url } = started.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).toMatch(new RegExp(`^otpauth://totp/Patrol:${username}\\?`));
    expect(otpauth_url).toContain(`secret=${secret}`);

    // Not confirmed yet: the factors say no TOTP, and a password still signs in alone.
    expect((await client.get('/api/v1/me/factors', { token })).body.data).toEqual({
      totp: false,
      passkeys: [],
      recovery_codes_left: 0,
    });
    expect((await firstStep(username)).body.data.jwt).toEqual(expect.any(String));

    const wrong = await client.post('/api/v1/me/totp/confirm', {
      ...fromIp(uniqueIp()),
      token,
      body: { code: '000000' },
    });
    const right = await codeAt(secret);
    expect(wrong.status).toBe(right === '000000' ? 200 : 400);
    if (right !== '000000') expect(wrong.body.code).toBe(ErrorCode.SecondFactorWrong);
    const malformed = await client.post('/api/v1/me/totp/confirm', {
      ...fromIp(uniqueIp()),
      token,
      body: { code: '12ab' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.extra.code).toBe('The code has 6 digits');

    const confirmed = await client.post('/api/v1/me/totp/confirm', {
      ...fromIp(uniqueIp()),
      token,
      body: { code: right },
    });
    expect(confirmed.status).toBe(200);
    const codes: string[] = confirmed.body.data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(confirmed.body.data).not.toHaveProperty('jwt');

    expect((await client.get('/api/v1/me/factors', { token })).body.data).toEqual({
      totp: true,
      passkeys: [],
      recovery_codes_left: 10,
    });
    // A second app is refused until the first is removed.
    const again = await client.post('/api/v1/me/totp', { ...fromIp(uniqueIp()), token, body: { password: PASSWORD } });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe(ErrorCode.TotpAlreadyEnrolled);
  });

  it('refuses a confirmation with nothing started, and a start without a session or ticket', async () => {
    const username = uniqueName('nostart');
    await k.createUser(username, PASSWORD);
    const token = await login(stack.url, username, PASSWORD);
    const res = await client.post('/api/v1/me/totp/confirm', {
      ...fromIp(uniqueIp()),
      token,
      body: { code: '123456' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(ErrorCode.TotpNotStarted);
    expect((await client.post('/api/v1/me/totp', { ...fromIp(uniqueIp()), body: {} })).status).toBe(401);
    const badTicket = await client.post('/api/v1/me/totp', {
      ...fromIp(uniqueIp()),
      body: { ticket: 'no-such-ticket' },
    });
    expect(badTicket.status).toBe(400);
    expect(badTicket.body.code).toBe(ErrorCode.SignInTicketInvalid);
  });
});

describe('a TOTP set-up from a session asks for the current password', () => {
  // Someone at the owner's unlocked desk holds the session, not the password: an app they added
  // would outlive the owner's password change (which ends sessions, not factors).
  it('starts nothing without the password or with a wrong one, and starts with it', async () => {
    const username = uniqueName('pwdtotp');
    const id = await k.createUser(username, PASSWORD);
    const token = await login(stack.url, username, PASSWORD);
    const ip = uniqueIp();
    const start = (body: object) =>
      client.post('/api/v1/me/totp', { ...fromIp(uniqueIp()), token, body, ...fromIp(ip) });

    const none = await start({});
    expect(none).toMatchObject({
      status: 400,
      body: { code: ErrorCode.Validation, extra: { password: 'Please input current password!' } },
    });
    const wrong = 'not-my-pass-9';
    const refused = await start({ password: wrong });
    expect(refused).toMatchObject({
      status: 400,
      body: { msg: 'Current password is wrong', extra: { password: 'Current password is wrong' } },
    });
    expect(refused.body.data).toBeUndefined();
    // Nothing was kept: there is no secret to confirm.
    const confirm = await client.post('/api/v1/me/totp/confirm', {
      ...fromIp(uniqueIp()),
      token,
      body: { code: '123456' },
    });
    expect(confirm.body.code).toBe(ErrorCode.TotpNotStarted);

    const started = await start({ password: ` ${PASSWORD} ` });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.data.secret).toMatch(/^[A-Z2-7]{32}$/);

    // The wrong password is a security event (never the password itself); the audit rows keep no password.
    const logFile = join(stack.dataDir, 'stack.log');
    const events = () =>
      readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"security event"') && l.includes('"totp_start"') && l.includes(`user#${id}`))
        .map((l) => JSON.parse(l));
    await expect.poll(() => events().map((e) => e.outcome), { timeout: 5000 }).toEqual(['failure', 'success']);
    expect(events()[0]).toMatchObject({ actor: id, client_ip: ip, reason: 'wrong current password' });
    expect(readFileSync(logFile, 'utf8')).not.toContain(wrong);
    const rows = await client.get(`/api/v1/super/audit?actor_name=${username}&action=totp.start&page_size=20`, {
      token: await k.admin(),
    });
    expect(rows.body.data.result.map((r: { status: number }) => r.status).sort()).toEqual([200, 400, 400]);
    expect(JSON.stringify(rows.body.data.result)).not.toContain(wrong);
    expect(JSON.stringify(rows.body.data.result)).not.toContain(PASSWORD);
  });

  it('counts wrong passwords with /pwd and the passkey set-up, per user, even before a right one', async () => {
    const username = uniqueName('pwdbudget');
    await k.createUser(username, PASSWORD);
    const token = await login(stack.url, username, PASSWORD);
    const { limit, windowSeconds } = AUTH_LIMITS.pwdPerUser;
    await withinOneWindow(windowSeconds);
    // A right password spends nothing: the owner may start as often as the start's own limit allows.
    for (let i = 0; i < limit + 1; i++) {
      const ok = await client.post('/api/v1/me/totp', {
        ...fromIp(uniqueIp()),
        token,
        body: { password: PASSWORD },
        ...fromIp(uniqueIp()),
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    }
    // Wrong guesses, spread over the three routes that ask for the password, share one budget.
    const guesses = [
      () =>
        client.post('/api/v1/me/totp', {
          ...fromIp(uniqueIp()),
          token,
          body: { password: 'guess-pass-1' },
          ...fromIp(uniqueIp()),
        }),
      () =>
        client.post('/api/v1/me/passkeys/options', {
          token,
          body: { password: 'guess-pass-2' },
          ...fromIp(uniqueIp()),
        }),
      () =>
        client.post('/api/v1/pwd', {
          token,
          body: { old_pwd: 'guess-pass-3', pwd: 'new-pass-22' },
          ...fromIp(uniqueIp()),
        }),
    ];
    for (let i = 0; i < limit; i++) expect((await guesses[i % guesses.length]()).status).toBe(400);
    const over = await client.post('/api/v1/me/totp', {
      ...fromIp(uniqueIp()),
      token,
      body: { password: PASSWORD },
      ...fromIp(uniqueIp()),
    });
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    const overPasskey = await client.post('/api/v1/me/passkeys/options', {
      token,
      body: { password: PASSWORD },
      ...fromIp(uniqueIp()),
    });
    expect(overPasskey.status).toBe(429);
  });
});

describe('two-step sign-in', () => {
  it('answers a ticket and no token after the password, then the token for a right code', async () => {
    const user = await enrolledUser('twostep');
    const first = await firstStep(user.username);
    expect(first.status).toBe(200);
    expect(first.body.code).toBe(1000);
    expect(first.body.data).toEqual({
      second_factor: { ticket: expect.any(String), methods: ['totp', 'recovery'] },
    });
    expect(JSON.stringify(first.body)).not.toContain('jwt');
    const { ticket } = first.body.data.second_factor;

    // A wrong password still answers as before: nothing says the user has a second factor.
    const wrongPassword = await client.post('/api/v1/login', {
      body: { username: user.username, password: 'not-the-pass' },
      ...fromIp(uniqueIp()),
    });
    expect(wrongPassword.body.code).toBe(ErrorCode.BadCredentials);

    const code = await codeAt(user.secret, 1);
    const wrong = await secondStep({ ticket, method: 'totp', code: code === '111111' ? '222222' : '111111' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe(ErrorCode.SecondFactorWrong);

    const right = await secondStep({ ticket, method: 'totp', code });
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(right.body.data).toMatchObject({ jwt: expect.any(String), name: `Nick ${user.username}`, s: 'operator' });
    const info = await client.get('/api/v1/info', { token: right.body.data.jwt });
    expect(info.body.data.username).toBe(user.username);

    // The ticket signed in once.
    const replay = await secondStep({ ticket, method: 'totp', code });
    expect(replay.status).toBe(400);
    expect(replay.body.code).toBe(ErrorCode.SignInTicketInvalid);

    // The same code with a new ticket: its window is used.
    const next = (await firstStep(user.username)).body.data.second_factor.ticket;
    const reused = await secondStep({ ticket: next, method: 'totp', code });
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe(ErrorCode.SecondFactorCodeUsed);
    // So is the first code's window, which the enrolment used.
    const older = await secondStep({ ticket: next, method: 'totp', code: await codeAt(user.secret, -1) });
    expect(older.status).toBe(400);
    expect([ErrorCode.SecondFactorCodeUsed, ErrorCode.SecondFactorWrong]).toContain(older.body.code);
  });

  it('takes a recovery code once, in any case and with or without its dash', async () => {
    const user = await enrolledUser('recovery');
    const ticket = (await firstStep(user.username)).body.data.second_factor.ticket;
    const typed = user.recovery[3].toUpperCase().replace('-', ' ');
    const used = await secondStep({ ticket, method: 'recovery', code: typed });
    expect(used.status, JSON.stringify(used.body)).toBe(200);
    expect(used.body.data.jwt).toEqual(expect.any(String));

    const again = (await firstStep(user.username)).body.data.second_factor.ticket;
    const twice = await secondStep({ ticket: again, method: 'recovery', code: user.recovery[3] });
    expect(twice.status).toBe(400);
    expect(twice.body.code).toBe(ErrorCode.SecondFactorWrong);
    // A recovery code is no TOTP code, and another user's codes are not this one's.
    const other = await enrolledUser('other');
    const foreign = await secondStep({ ticket: again, method: 'recovery', code: other.recovery[0] });
    expect(foreign.body.code).toBe(ErrorCode.SecondFactorWrong);
    const token = used.body.data.jwt;
    expect((await client.get('/api/v1/me/factors', { token })).body.data.recovery_codes_left).toBe(9);
  });

  it(`throttles wrong codes: past ${FACTOR_LOCK_AFTER} a right code is refused too (429), and each try is audited`, async () => {
    const user = await enrolledUser('guess');
    const ticket = (await firstStep(user.username)).body.data.second_factor.ticket;
    const right = await codeAt(user.secret, 1);
    const wrongCode = right === '999999' ? '888888' : '999999';
    for (let i = 0; i < FACTOR_LOCK_AFTER; i++) {
      const res = await secondStep({ ticket, method: 'totp', code: wrongCode });
      expect(res.status).toBe(400);
    }
    // Another address does not help: the count is the user's.
    const locked = await secondStep({ ticket, method: 'totp', code: right });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);

    const rows = await client.get(
      `/api/v1/super/audit?actor_name=${user.username}&action=second_factor.sign_in&page_size=20`,
      { token: await k.admin() },
    );
    expect(rows.status, JSON.stringify(rows.body)).toBe(200);
    const result = rows.body.data.result as { status: number; reason?: string; input?: string }[];
    expect(result.filter((r) => r.status === 400)).toHaveLength(FACTOR_LOCK_AFTER);
    expect(result.filter((r) => r.status === 429)).toHaveLength(1);
    expect(result.find((r) => r.status === 400)?.reason).toBe('wrong_code');
    // The rows keep the method, never the code or the ticket.
    for (const r of result) {
      expect(r.input).toContain('totp');
      expect(r.input).not.toContain(wrongCode);
      expect(r.input).not.toContain(ticket);
    }
  });

  it('refuses an unknown ticket and a ticket of a user whose password changed since', async () => {
    const unknown = await secondStep({ ticket: 'x'.repeat(43), method: 'totp', code: '123456' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe(ErrorCode.SignInTicketInvalid);

    const user = await enrolledUser('changed');
    const ticket = (await firstStep(user.username)).body.data.second_factor.ticket;
    const changed = await client.put(`/api/v1/super/users/${user.id}/pwd`, {
      token: await k.admin(),
      body: { pwd: PASSWORD },
    });
    expect(changed.status).toBe(200);
    const res = await secondStep({ ticket, method: 'totp', code: await codeAt(user.secret, 1) });
    expect(res.body.code).toBe(ErrorCode.SignInTicketInvalid);
  });
});

describe('tickets and codes under a race and a clock', () => {
  it('lets one of two parallel sign-ins with the same code through, the other refused as used', async () => {
    const user = await enrolledUser('race');
    const [a, b] = await Promise.all([firstStep(user.username), firstStep(user.username)]);
    const code = await codeAt(user.secret, 1);
    const answers = await Promise.all([
      secondStep({ ticket: a.body.data.second_factor.ticket, method: 'totp', code }),
      secondStep({ ticket: b.body.data.second_factor.ticket, method: 'totp', code }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(answers.find((r) => r.status === 400)?.body.code).toBe(ErrorCode.SecondFactorCodeUsed);
  });

  it('keeps a ticket five minutes: the functions, given a later clock, refuse it', async () => {
    // The sign-in code in this process, on the stack's engines, with its own clock.
    Object.assign(process.env, stack.env);
    (await import('../../functions/lib/aws/clients.js')).resetClients();
    const { TICKET_TTL_MS, ticketUser } = await import('../../functions/auth/signIn.js');
    const { secondFactorSignIn } = await import('../../functions/auth/factors.js');
    const { SignInTicketError } = await import('../../functions/auth/errors.js');
    const user = await enrolledUser('clock');
    const issued = Date.now();
    const { ticket } = (await firstStep(user.username)).body.data.second_factor;

    expect((await ticketUser(ticket, 'second_factor', issued + TICKET_TTL_MS - 5_000)).username).toBe(user.username);
    await expect(ticketUser(ticket, 'second_factor', issued + TICKET_TTL_MS + 1_000)).rejects.toBeInstanceOf(
      SignInTicketError,
    );
    await expect(ticketUser(ticket, 'enroll', issued)).rejects.toBeInstanceOf(SignInTicketError);
    const late = issued + TICKET_TTL_MS + 1_000;
    const code = await generate({ secret: user.secret, epoch: Math.floor(late / 1000) });
    await expect(
      secondFactorSignIn({ ticket, method: 'totp', code }, uniqueIp(), undefined, late),
    ).rejects.toBeInstanceOf(SignInTicketError);
    // Still good in time, through the API.
    const ok = await secondStep({ ticket, method: 'totp', code: await codeAt(user.secret, 1) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});

describe('removing factors', () => {
  it('removes one’s own TOTP with a current code; the sessions end and a password signs in alone', async () => {
    const user = await enrolledUser('remove');
    const wrong = await client.delete('/api/v1/me/totp', {
      ...fromIp(uniqueIp()),
      token: user.token,
      body: { code: '000001' },
    });
    expect(wrong.status).toBe(400);
    const removed = await client.delete('/api/v1/me/totp', {
      ...fromIp(uniqueIp()),
      token: user.token,
      body: { code: await codeAt(user.secret, 1) },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect((await client.get('/api/v1/info', { token: user.token })).status).toBe(401);
    const first = await firstStep(user.username);
    expect(first.body.data.jwt).toEqual(expect.any(String));
    const factors = await client.get('/api/v1/me/factors', { token: first.body.data.jwt });
    expect(factors.body.data).toEqual({ totp: false, passkeys: [], recovery_codes_left: 0 });
    const none = await client.delete('/api/v1/me/totp', {
      ...fromIp(uniqueIp()),
      token: first.body.data.jwt,
      body: { code: '123456' },
    });
    expect(none.status).toBe(404);
    expect(none.body.code).toBe(ErrorCode.FactorNotFound);
  });

  it('lets a super reset a user’s factors (audited), which ends the user’s sessions; nobody else', async () => {
    const user = await enrolledUser('reset');
    const operator = await enrolledUser('notsuper');
    const refused = await client.post(`/api/v1/super/users/${user.id}/factors/reset`, { token: operator.token });
    expect(refused.status).toBe(403);

    const res = await client.post(`/api/v1/super/users/${user.id}/factors/reset`, { token: await k.admin() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ totp_removed: true, passkeys_removed: 0 });
    expect((await client.get('/api/v1/info', { token: user.token })).status).toBe(401);
    expect((await firstStep(user.username)).body.data.jwt).toEqual(expect.any(String));

    const missing = await client.post('/api/v1/super/users/987654321/factors/reset', { token: await k.admin() });
    expect(missing.status).toBe(404);
    const rows = await client.get(`/api/v1/super/audit?action=user.factors.reset&target=user%23${user.id}`, {
      token: await k.admin(),
    });
    expect(rows.body.data.result).toEqual([
      expect.objectContaining({ actor_name: 'admin', target: `user#${user.id}`, status: 200, outcome: 'allowed' }),
    ]);
  });

  it('regenerates the recovery codes with a current code: the old ones stop working', async () => {
    const user = await enrolledUser('regen');
    const res = await client.post('/api/v1/me/recovery-codes', {
      ...fromIp(uniqueIp()),
      token: user.token,
      body: { code: await codeAt(user.secret, 1) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const fresh: string[] = res.body.data.recovery_codes;
    expect(fresh).toHaveLength(10);
    const ticket = (await firstStep(user.username)).body.data.second_factor.ticket;
    const old = await secondStep({ ticket, method: 'recovery', code: user.recovery[0] });
    expect(old.body.code).toBe(ErrorCode.SecondFactorWrong);
    const ok = await secondStep({ ticket, method: 'recovery', code: fresh[0] });
    expect(ok.status).toBe(200);
  });
});
