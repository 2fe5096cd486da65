// Passkeys through the API (issue 43, item 1; docs/sign-in.md): registration, sign-in with a passkey
// alone and as the second step after the password, each answer verified once against a challenge
// the server handed out; refusals for a wrong or replayed challenge, a removed passkey, another
// user's passkey, a counter that went back; audit rows for every registration, use and removal.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { relyingPartyOf } from '../../functions/auth/relyingParty.js';
import { ErrorCode } from '../../shared/errors.js';
import { login } from '../helpers/api.js';
import { fromIp, kit, uniqueIp, uniqueName } from '../helpers/authKit.js';
import { SoftPasskey, type SoftPasskeyOptions } from '../helpers/softPasskey.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
const PASSWORD = 'passkey-pass-1';
const rp = relyingPartyOf(stack.env.PUBLIC_URL);

interface TestUser {
  id: number;
  username: string;
  token: string;
}

async function newUser(prefix: string, role: 'operator' | 'viewer' = 'operator'): Promise<TestUser> {
  const username = uniqueName(prefix);
  const id = await k.createUser(username, PASSWORD, role);
  return { id, username, token: await login(stack.url, username, PASSWORD) };
}

/** `POST /me/passkeys/options` as the security page sends it: the session and the current password. */
const registrationOptions = (user: TestUser, password = PASSWORD) =>
  client.post('/api/v1/me/passkeys/options', { token: user.token, body: { password } });

/** Registers a new passkey of `user` through the two calls; returns the authenticator and the reply. */
async function register(user: TestUser, name: string, opts?: SoftPasskeyOptions) {
  const options = await registrationOptions(user);
  expect(options.status).toBe(200);
  const key = new SoftPasskey(rp.origin, rp.id, opts);
  const res = await client.post('/api/v1/me/passkeys', {
    token: user.token,
    body: { name, response: key.register(options.body.data) },
  });
  return { key, res };
}

const signInOptions = (body: object = {}, ip = uniqueIp()) =>
  client.post('/api/v1/login/passkey/options', { body, ...fromIp(ip) });
const signIn = (body: object, ip = uniqueIp()) => client.post('/api/v1/login/passkey', { body, ...fromIp(ip) });

/** Options, then the authenticator's answer: what the login page's passkey button does. */
async function signInAlone(key: SoftPasskey) {
  const options = await signInOptions();
  expect(options.status).toBe(200);
  return signIn({ response: key.authenticate(options.body.data) });
}

async function auditRows(actorId: number) {
  const admin = await k.admin();
  const res = await client.get(`/api/v1/super/audit?actor_id==-${actorId}&page_size=100`, { token: admin });
  expect(res.status).toBe(200);
  return res.body.data.result as { action: string; status: number; outcome: string; after?: string; input?: string }[];
}

beforeAll(async () => {
  await k.admin();
});
afterAll(() => k.destroy());

describe('passkey registration', () => {
  it('registers named passkeys, lists them with their last use, and audits each registration', async () => {
    const user = await newUser('pkreg');
    const first = await register(user, 'Laptop');
    expect(first.res.status).toBe(200);
    expect(first.res.body.data).toMatchObject({ id: first.key.id, name: 'Laptop', last_used_at: null });
    const second = await register(user, '  Phone  ');
    expect(second.res.status).toBe(200);

    const list = await client.get('/api/v1/me/passkeys', { token: user.token });
    expect(list.body.data.map((p: { name: string }) => p.name)).toEqual(['Laptop', 'Phone']);
    expect(JSON.stringify(list.body.data)).not.toContain('public_key');

    const rows = (await auditRows(user.id)).filter((r) => r.action === 'passkey.register');
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.outcome === 'allowed')).toBe(true);
  });

  it('hands out no registration challenge to a session without the current password, or with a wrong one', async () => {
    // A session alone may be borrowed; a passkey its holder added would outlive a password change.
    const user = await newUser('pkpwd');
    const none = await client.post('/api/v1/me/passkeys/options', { token: user.token, body: {} });
    expect(none).toMatchObject({
      status: 400,
      body: { code: ErrorCode.Validation, extra: { password: 'Please input current password!' } },
    });
    const wrong = await registrationOptions(user, 'not-my-pass-9');
    expect(wrong).toMatchObject({
      status: 400,
      body: { msg: 'Current password is wrong', extra: { password: 'Current password is wrong' } },
    });
    expect(wrong.body.data).toBeUndefined();
    expect((await client.get('/api/v1/me/passkeys', { token: user.token })).body.data).toEqual([]);

    const { res } = await register(user, 'Laptop');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Without a session the password is not even looked at.
    const anonymous = await client.post('/api/v1/me/passkeys/options', { body: { password: PASSWORD } });
    expect(anonymous.status).toBe(401);
  });

  it('renames a passkey of its own only, and audits the rename', async () => {
    const user = await newUser('pkrename');
    const other = await newUser('pkrenother');
    const { key } = await register(user, 'Laptop');
    const path = `/api/v1/me/passkeys/${encodeURIComponent(key.id)}`;
    const res = await client.put(path, { token: user.token, body: { name: ' Old laptop ' } });
    expect(res).toMatchObject({ status: 200, body: { data: { id: key.id, name: 'Old laptop' } } });
    const foreign = await client.put(path, { token: other.token, body: { name: 'Mine now' } });
    expect(foreign).toMatchObject({ status: 404, body: { code: ErrorCode.PasskeyNotFound } });
    expect((await client.get('/api/v1/me/passkeys', { token: user.token })).body.data[0].name).toBe('Old laptop');
    expect((await auditRows(user.id)).filter((r) => r.action === 'passkey.rename')).toHaveLength(1);
  });

  it('keeps at most 20 passkeys a user, and says so', async () => {
    const user = await newUser('pkmany');
    for (let i = 0; i < 20; i++) expect((await register(user, `Key ${i}`)).res.status).toBe(200);
    const options = await registrationOptions(user);
    expect(options.status).toBe(400);
    expect(options.body.msg).toBe('At most 20 passkeys per user: remove one first');
  });

  it('lets a viewer register a passkey of its own', async () => {
    const viewer = await newUser('pkview', 'viewer');
    const { res } = await register(viewer, 'Viewer key');
    expect(res.status).toBe(200);
  });

  it('refuses a registration answer for a challenge it never handed out, and one used twice', async () => {
    const user = await newUser('pkregbad');
    const key = new SoftPasskey(rp.origin, rp.id);
    const forged = key.register({ challenge: 'bm90LWEtcmVhbC1jaGFsbGVuZ2U', user: { id: 'MQ' } });
    const res = await client.post('/api/v1/me/passkeys', { token: user.token, body: { name: 'X', response: forged } });
    expect(res).toMatchObject({ status: 400, body: { code: ErrorCode.PasskeyChallengeExpired } });

    const options = await registrationOptions(user);
    const answer = key.register(options.body.data);
    const ok = await client.post('/api/v1/me/passkeys', {
      token: user.token,
      body: { name: 'Once', response: answer },
    });
    expect(ok.status).toBe(200);
    const again = await client.post('/api/v1/me/passkeys', {
      token: user.token,
      body: { name: 'Twice', response: answer },
    });
    expect(again).toMatchObject({ status: 400, body: { code: ErrorCode.PasskeyChallengeExpired } });
  });

  it("refuses an answer to another user's registration challenge", async () => {
    const alice = await newUser('pkalice');
    const mallory = await newUser('pkmallory');
    const options = await registrationOptions(alice);
    const answer = new SoftPasskey(rp.origin, rp.id).register(options.body.data);
    const res = await client.post('/api/v1/me/passkeys', {
      token: mallory.token,
      body: { name: 'M', response: answer },
    });
    expect(res).toMatchObject({ status: 400, body: { code: ErrorCode.PasskeyChallengeExpired } });
  });

  it('refuses an answer made for another site (origin) with the passkey text', async () => {
    const user = await newUser('pkorigin');
    const options = await registrationOptions(user);
    const answer = new SoftPasskey('https://evil.example', rp.id).register(options.body.data);
    const res = await client.post('/api/v1/me/passkeys', { token: user.token, body: { name: 'E', response: answer } });
    expect(res).toMatchObject({ status: 400, body: { code: ErrorCode.PasskeyNotRecognised } });
  });

  it('says which field is wrong for a body that is no registration answer, with a 400', async () => {
    const user = await newUser('pkshape');
    const res = await client.post('/api/v1/me/passkeys', {
      token: user.token,
      body: { name: '', response: { id: 'not base64url!' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(ErrorCode.Validation);
    expect(res.body.extra.name).toBe('Please name the passkey');
  });
});

describe('sign-in with a passkey alone', () => {
  it('signs in with no username or password, records the last use and audits it under the user', async () => {
    const user = await newUser('pkalone');
    const { key } = await register(user, 'Laptop');
    const before = Date.now();

    const options = await signInOptions();
    expect(options.body.data.allowCredentials ?? []).toEqual([]);
    expect(options.body.data.userVerification).toBe('required');
    const res = await signIn({ response: key.authenticate(options.body.data) });
    expect(res.status).toBe(200);
    expect(typeof res.body.data.jwt).toBe('string');
    expect(res.body.data.name).toBe(`Nick ${user.username}`);

    const info = await client.get('/api/v1/info', { token: res.body.data.jwt });
    expect(info.body.data.username).toBe(user.username);
    const list = await client.get('/api/v1/me/passkeys', { token: user.token });
    expect(list.body.data[0].last_used_at).toBeGreaterThanOrEqual(before);

    const rows = (await auditRows(user.id)).filter((r) => r.action === 'passkey.sign_in');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ outcome: 'allowed', status: 200 });
    expect(rows[0].after ?? '').not.toContain(res.body.data.jwt);
  });

  it('refuses the same answer twice (a replay), and an answer to a challenge it never handed out', async () => {
    const user = await newUser('pkreplay');
    const { key } = await register(user, 'Key');
    const options = await signInOptions();
    const answer = key.authenticate(options.body.data);
    expect((await signIn({ response: answer })).status).toBe(200);
    const replay = await signIn({ response: answer });
    expect(replay).toMatchObject({ status: 400, body: { code: ErrorCode.PasskeyChallengeExpired } });
    expect(replay.body.data).toBeUndefined();

    const forged = await signIn({ response: key.authenticate({ challenge: 'c29tZS1vdGhlci1jaGFsbGVuZ2U' }) });
    expect(forged).toMatchObject({ status: 400, body: { code: ErrorCode.PasskeyChallengeExpired } });
  });

  it('refuses an answer to a registration challenge used to sign in', async () => {
    const user = await newUser('pkpurpose');
    const { key } = await register(user, 'Key');
    const regOptions = await registrationOptions(user);
    const res = await signIn({ response: key.authenticate(regOptions.body.data) });
    expect(res).toMatchObject({ status: 400, body: { code: ErrorCode.PasskeyChallengeExpired } });
  });

  it('refuses a passkey without user verification on its own (it is both factors then)', async () => {
    const user = await newUser('pknouv');
    const { key } = await register(user, 'No PIN', { userVerified: false });
    const res = await signInAlone(key);
    expect(res).toMatchObject({ status: 400, body: { code: ErrorCode.PasskeyNotRecognised } });
  });

  it("refuses a removed passkey, ends the user's sessions with it, and audits the removal", async () => {
    const user = await newUser('pkremoved');
    const { key } = await register(user, 'Old key');
    const removed = await client.delete(`/api/v1/me/passkeys/${encodeURIComponent(key.id)}`, { token: user.token });
    expect(removed.status).toBe(200);
    // Removing a factor ends every session of the user, this one too.
    expect((await client.get('/api/v1/info', { token: user.token })).status).toBe(401);
    const token = await login(stack.url, user.username, PASSWORD);
    expect((await client.get('/api/v1/me/passkeys', { token })).body.data).toEqual([]);

    const res = await signInAlone(key);
    expect(res).toMatchObject({ status: 400, body: { code: ErrorCode.PasskeyNotRecognised } });
    const again = await client.delete(`/api/v1/me/passkeys/${encodeURIComponent(key.id)}`, { token });
    expect(again).toMatchObject({ status: 404, body: { code: ErrorCode.PasskeyNotFound } });

    const rows = (await auditRows(user.id)).filter((r) => r.action === 'passkey.remove');
    expect(rows.map((r) => r.status).sort()).toEqual([200, 404]);
    expect(rows.find((r) => r.status === 200)?.after).toContain('Old key');
  });

  it("cannot remove another user's passkey", async () => {
    const owner = await newUser('pkowner');
    const other = await newUser('pkother');
    const { key } = await register(owner, 'Mine');
    const res = await client.delete(`/api/v1/me/passkeys/${encodeURIComponent(key.id)}`, { token: other.token });
    expect(res.status).toBe(404);
    expect((await signInAlone(key)).status).toBe(200);
  });

  it('refuses an answer whose counter went back (a cloned authenticator)', async () => {
    const user = await newUser('pkclone');
    const { key } = await register(user, 'Key');
    expect((await signInAlone(key)).status).toBe(200);
    key.rewindCounter(1);
    const res = await signInAlone(key);
    expect(res).toMatchObject({ status: 400, body: { code: ErrorCode.PasskeyNotRecognised } });
  });

  it('accepts an authenticator that keeps no counter, every time', async () => {
    const user = await newUser('pknocount');
    const { key } = await register(user, 'Key', { noCounter: true });
    expect((await signInAlone(key)).status).toBe(200);
    expect((await signInAlone(key)).status).toBe(200);
  });

  it('refuses a disabled user', async () => {
    const user = await newUser('pkdisabled');
    const { key } = await register(user, 'Key');
    const admin = await k.admin();
    const off = await client.put(`/api/v1/super/users/${user.id}`, { token: admin, body: { enabled: false } });
    expect(off.status).toBe(200);
    const res = await signInAlone(key);
    expect(res.status).toBe(403);
  });
});

describe('a passkey as the second step after the password', () => {
  const passwordStep = async (username: string) => {
    const res = await client.post('/api/v1/login', { body: { username, password: PASSWORD }, ...fromIp(uniqueIp()) });
    expect(res.status).toBe(200);
    expect(res.body.data.jwt).toBeUndefined();
    return res.body.data.second_factor as { ticket: string; methods: string[] };
  };

  it("offers the passkey after the password, asks for that user's passkeys only, and signs in", async () => {
    const user = await newUser('pk2nd');
    const { key } = await register(user, 'Key');
    const step = await passwordStep(user.username);
    expect(step.methods).toContain('passkey');

    const options = await signInOptions({ ticket: step.ticket });
    expect(options.status).toBe(200);
    expect(options.body.data.allowCredentials.map((c: { id: string }) => c.id)).toEqual([key.id]);
    const res = await signIn({ ticket: step.ticket, response: key.authenticate(options.body.data) });
    expect(res.status).toBe(200);
    expect(typeof res.body.data.jwt).toBe('string');

    // The ticket signed in once.
    const reuse = await signInOptions({ ticket: step.ticket });
    expect(reuse.status).toBe(400);
    const rows = (await auditRows(user.id)).filter((r) => r.action === 'passkey.sign_in');
    expect(rows).toHaveLength(1);
  });

  it("refuses another user's passkey in the ticket's step, and audits the refusal under the ticket's user", async () => {
    const victim = await newUser('pkvictim');
    const attacker = await newUser('pkattacker');
    await register(victim, 'Victim key');
    const { key: attackerKey } = await register(attacker, 'Attacker key');
    const step = await passwordStep(victim.username);

    const options = await signInOptions({ ticket: step.ticket });
    const res = await signIn({ ticket: step.ticket, response: attackerKey.authenticate(options.body.data) });
    expect(res).toMatchObject({ status: 400, body: { code: ErrorCode.PasskeyNotRecognised } });
    expect(res.body.data).toBeUndefined();

    const rows = (await auditRows(victim.id)).filter((r) => r.action === 'passkey.sign_in');
    expect(rows).toMatchObject([{ outcome: 'refused', status: 400 }]);
  });

  it('refuses a challenge of a sign-in alone answered with a ticket', async () => {
    const user = await newUser('pkmix');
    const { key } = await register(user, 'Key');
    const step = await passwordStep(user.username);
    const alone = await signInOptions();
    const res = await signIn({ ticket: step.ticket, response: key.authenticate(alone.body.data) });
    expect(res).toMatchObject({ status: 400, body: { code: ErrorCode.PasskeyChallengeExpired } });
  });
});

describe('passkey options', () => {
  it('limits the sign-in options one client address asks for', async () => {
    const ip = uniqueIp();
    let last = await signInOptions({}, ip);
    for (let i = 1; i < 31 && last.status === 200; i++) last = await signInOptions({}, ip);
    expect(last.status).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });
});
