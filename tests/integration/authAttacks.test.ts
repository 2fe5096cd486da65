import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AUTH_LIMITS } from '../../functions/auth/rateLimits.js';
import { THROTTLE } from '../../functions/auth/throttlePolicy.js';
import { ErrorCode } from '../../shared/envelope.js';
import { login } from '../helpers/api.js';
import { fromIp, kit, uniqueIp, uniqueName } from '../helpers/authKit.js';
import { withinOneWindow } from '../helpers/until.js';

// What an attacker on the network can try against the login throttle, through the real local
// server: every request comes from a socket address of its own (tests/helpers/api.ts `from`).

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
const PASSWORD = 'right-pass-1';

async function newUser(prefix: string) {
  const username = uniqueName(prefix);
  await k.createUser(username, PASSWORD);
  return username;
}

const attempt = (username: string, password: string, ip: string, headers: Record<string, string> = {}) =>
  client.post('/api/v1/login', { body: { username, password }, headers, ...fromIp(ip) });

/** Answers whose password was checked: right (200) or wrong credentials. */
const checked = (res: { status: number; body: { code?: number } }) =>
  res.status === 200 || res.body.code === ErrorCode.BadCredentials;

beforeAll(async () => {
  await k.admin();
});
afterAll(() => k.destroy());

describe('the client address cannot be forged', () => {
  it('still asks for the captcha when failures are followed by a new X-Forwarded-For', async () => {
    const username = await newUser('spoof');
    const ip = uniqueIp();
    for (let i = 0; i < THROTTLE.captchaAfter; i++) await attempt(uniqueName('ghost'), 'nope-nope', ip);

    const forgeries: Record<string, string>[] = [
      { 'x-forwarded-for': '198.51.100.23' },
      { 'x-forwarded-for': `${uniqueIp()}, 198.51.100.24` },
      { 'cloudfront-viewer-address': '198.51.100.25:443', 'x-patrol-origin-verify': 'guessed' },
    ];
    for (const forged of forgeries) {
      const res = await attempt(username, PASSWORD, ip, forged);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: ErrorCode.CaptchaRequired, extra: { captcha: 'required' } });
    }
    // The user themself, from their own address, is not affected.
    expect((await attempt(username, PASSWORD, uniqueIp())).status).toBe(200);
  });
});

describe('parallel guesses', () => {
  it('check at most three passwords of one user when 30 guesses arrive at once from 30 addresses', async () => {
    const username = await newUser('burst');
    const replies = await Promise.all(Array.from({ length: 30 }, () => attempt(username, 'nope-nope', uniqueIp())));

    const wasChecked = replies.filter(checked);
    expect(wasChecked.length).toBeGreaterThan(0);
    expect(wasChecked.length).toBeLessThanOrEqual(THROTTLE.captchaAfter);
    for (const res of replies.filter((r) => !checked(r))) {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(ErrorCode.CaptchaRequired);
    }
  });

  it('check at most three passwords from one address when 30 guesses at different users arrive at once', async () => {
    const ip = uniqueIp();
    const replies = await Promise.all(Array.from({ length: 30 }, () => attempt(uniqueName('spray'), 'nope-nope', ip)));

    expect(replies.filter(checked).length).toBeLessThanOrEqual(THROTTLE.captchaAfter);
    for (const res of replies.filter((r) => !checked(r))) {
      expect([ErrorCode.CaptchaRequired, ErrorCode.TooManyRequests]).toContain(res.body.code);
    }
  });

  it('let the owner in with the right password and a captcha while the username is under attack', async () => {
    const username = await newUser('owner');
    await Promise.all(Array.from({ length: 20 }, () => attempt(username, 'nope-nope', uniqueIp())));
    expect((await attempt(username, PASSWORD, uniqueIp())).body.code).toBe(ErrorCode.CaptchaRequired);

    const ip = uniqueIp();
    const captcha = await client.get('/api/v1/captcha', fromIp(ip));
    const answer = await k.solveCaptcha(captcha.body.data.id);
    const res = await client.post('/api/v1/login', {
      body: { username, password: PASSWORD, captcha: { id: captcha.body.data.id, answer } },
      ...fromIp(ip),
    });
    expect(res.status).toBe(200);
    expect(typeof res.body.data.jwt).toBe('string');
  });
});

describe('rate limits of /captcha and /pwd', () => {
  it('gives each address a limited number of captchas, then 429 with Retry-After', async () => {
    const ip = uniqueIp();
    const { limit, windowSeconds } = AUTH_LIMITS.captchaPerClient;
    await withinOneWindow(windowSeconds);
    const replies = await Promise.all(
      Array.from({ length: limit + 5 }, () => client.get('/api/v1/captcha', fromIp(ip))),
    );

    expect(replies.filter((r) => r.status === 200)).toHaveLength(limit);
    const refused = replies.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(5);
    for (const res of refused) {
      expect(res.status).toBe(429);
      expect(res.body.code).toBe(ErrorCode.TooManyRequests);
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
    }
    // Another address is not affected.
    expect((await client.get('/api/v1/captcha', fromIp(uniqueIp()))).status).toBe(200);
  });

  it('stops guessing the current password through /pwd per user, even with the right one', async () => {
    const username = await newUser('pwduser');
    const token = await login(stack.url, username, PASSWORD);
    const { limit, windowSeconds } = AUTH_LIMITS.pwdPerUser;
    await withinOneWindow(windowSeconds);
    for (let i = 0; i < limit; i++) {
      const res = await client.post('/api/v1/pwd', {
        token,
        body: { old_pwd: `guess-${i}-pass`, pwd: 'new-pass-22' },
        ...fromIp(uniqueIp()),
      });
      expect(res.status).toBe(400);
    }
    const over = await client.post('/api/v1/pwd', {
      token,
      body: { old_pwd: PASSWORD, pwd: 'new-pass-22' },
      ...fromIp(uniqueIp()),
    });
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Nothing changed: the old password still signs in.
    expect((await attempt(username, PASSWORD, uniqueIp())).status).toBe(200);
  });

  it('limits /pwd per address across users', async () => {
    const ip = uniqueIp();
    const { limit, windowSeconds } = AUTH_LIMITS.pwdPerClient;
    const perUser = AUTH_LIMITS.pwdPerUser.limit;
    await withinOneWindow(windowSeconds, 60);
    const users = await Promise.all(
      Array.from({ length: Math.ceil(limit / perUser) + 1 }, async () =>
        login(stack.url, await newUser('pwdip'), PASSWORD),
      ),
    );
    const statuses: number[] = [];
    for (let i = 0; i <= limit; i++) {
      const token = users[Math.floor(i / perUser)];
      const res = await client.post('/api/v1/pwd', {
        token,
        body: { old_pwd: 'wrong-pass-1', pwd: 'x-pass-22' },
        ...fromIp(ip),
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, limit).every((s) => s === 400)).toBe(true);
    expect(statuses[limit]).toBe(429);
  });
});

describe('the security log', () => {
  it('records a failed login with the username, the client address and the outcome, never the password', async () => {
    const username = uniqueName('logged');
    const ip = uniqueIp();
    const password = 'never-in-the-log-7';
    await attempt(username, password, ip);

    const logFile = join(stack.dataDir, 'stack.log');
    // One security event line (the audit step writes its own 'audit' line for the same call).
    await expect
      .poll(
        () =>
          readFileSync(logFile, 'utf8')
            .split('\n')
            .filter((l) => l.includes(username) && l.includes('"security event"')),
        { timeout: 5000 },
      )
      .toHaveLength(1);
    const line = readFileSync(logFile, 'utf8')
      .split('\n')
      .find((l) => l.includes(username) && l.includes('"security event"')) as string;
    expect(JSON.parse(line)).toMatchObject({
      message: 'security event',
      security: true,
      event: 'login',
      actor: username,
      client_ip: ip,
      outcome: 'failure',
    });
    expect(readFileSync(logFile, 'utf8')).not.toContain(password);
  });
});
