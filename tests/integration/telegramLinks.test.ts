// Telegram links and the bot's webhook against the holes of issue 43 (items 3 and 4): a link ends
// with the sessions it was made in (its chat told), a forged button name changes nothing, link codes
// are limited and expire, and an unlinked sender never spends a linked account's budget. Through the
// running stack, the real webhook path with its secret, and the sandbox Bot API.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RunStatus } from '../../shared/enums.js';
import { ErrorCode } from '../../shared/errors.js';
import { login } from '../helpers/api.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { until } from '../helpers/until.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
const tgUrl = stack.env.TELEGRAM_API_URL;
const TOKEN = `7001002043:AAH-${uniqueName('linktoken').replace(/[^A-Za-z0-9_-]/g, '')}xxxxxxxxxxxx`;
const CHAT = `-100${(Date.now() % 1_000_000_000) + 43}`;
/** What the bot tells a chat whose link ended (functions/telegramBot/service.ts LINK_ENDED). */
const LINK_ENDED = 'Unlinked: the Patrol sessions this link was made in have ended.';
let admin: string;
let tgSeq = 9_430_000 + (Date.now() % 10_000) * 10;
let subtaskSeq = 0;

interface ChatMessage {
  message_id: number;
  text: string;
  reply_markup: { inline_keyboard: { text: string; callback_data?: string }[][] } | null;
}
const api = (method: 'get' | 'put' | 'post' | 'delete', path: string, body?: unknown, token = admin) =>
  client[method](`/api/v1${path}`, { token, ...(body !== undefined ? { body } : {}) });
async function sandbox(path: string, body?: unknown) {
  const res = await fetch(`${tgUrl}/sandbox/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}
const chatMessages = async (chat: string | number): Promise<ChatMessage[]> =>
  (await sandbox(`chats/${encodeURIComponent(String(chat))}/messages`)).messages ?? [];

let modules: {
  service: typeof import('../../functions/incidents/service.js');
  users: typeof import('../../functions/users/store.js');
};

/** A console user of `role` with a Telegram account linked through /start. */
async function linkedUser(role: 'operator' | 'viewer' = 'operator') {
  const username = uniqueName(`lk${role}`);
  const password = `${role}-pass-1`;
  const id = await k.createUser(username, password, role);
  const token = await login(stack.url, username, password);
  const tgId = ++tgSeq;
  const code = await api('post', '/telegram/link-code', {}, token);
  expect(code.status, JSON.stringify(code.body)).toBe(200);
  const delivered = await sandbox('updates/message', { from: { id: tgId }, text: `/start ${code.body.data.token}` });
  expect(delivered.status).toBe(200);
  expect((await api('get', '/telegram/link', undefined, token)).body.data).toMatchObject({ linked: true });
  return { id, username, password, token, tgId };
}

/** An open incident of a new site, and its Telegram message with the buttons. */
async function openIncident() {
  const name = uniqueName('Link site ');
  const site = await api('post', '/sites', {
    name,
    url: stack.env.SANDBOX_SITE_URL,
    accounts: [{ user: uniqueName('locked'), pwd: 'sandbox123' }],
  });
  expect(site.status, JSON.stringify(site.body)).toBe(200);
  const siteId = site.body.data.id as number;
  const t0 = Date.now();
  await modules.service.recordIncidentResult({
    // One made-up subtask per call: six opened at once can share a millisecond (and tgSeq), and one
    // subtask recorded twice is one incident's, leaving the others without a message.
    id: 43_000_000_000 + (t0 % 1_000_000) * 100 + (++subtaskSeq % 100),
    operation_id: 43_000_000,
    site_id: siteId,
    process: 1,
    mode: 1,
    status: RunStatus.values.Failed,
    msg: 'Login failed',
    end_at: t0,
  });
  const [message] = await until(
    'the incident message',
    async () => (await chatMessages(CHAT)).filter((m) => m.text.includes(name)),
    (ms) => ms.length === 1 && !!ms[0].reply_markup,
  );
  const incident = (await api('get', `/incidents?site_id==-${siteId}&page_size=10`)).body.data.result[0] as {
    id: number;
    status: number;
  };
  return { siteId, name, message, incident };
}

const press = (message: ChatMessage, data: string, tgId: number, forged = false) =>
  sandbox('updates/press', { chat_id: CHAT, message_id: message.message_id, data, from: { id: tgId }, forged });

const incidentStatus = async (id: number) => (await api('get', `/incidents/${id}`)).body.data.status as number;

/** The link is gone, the chat was told so, and a press acts no more. */
async function expectEnded(user: Awaited<ReturnType<typeof linkedUser>>, token: string) {
  expect((await api('get', '/telegram/link', undefined, token)).body.data).toMatchObject({ linked: false });
  const told = await chatMessages(user.tgId);
  expect(told.map((m) => m.text).join('\n')).toContain(LINK_ENDED);
  const { message, incident } = await openIncident();
  const pressed = await press(message, `i:${incident.id}:ack`, user.tgId);
  expect(pressed).toMatchObject({ status: 200, answer: { text: 'Not allowed' } });
  expect(await incidentStatus(incident.id)).toBe(1);
}

beforeAll(async () => {
  expect(tgUrl, 'the stack serves the sandbox Bot API').toBeTruthy();
  admin = await k.admin();
  const saved = await api('put', '/super/notification/tg', {
    bot_token: TOKEN,
    check_chat_id: CHAT,
    bank_chat_id: '',
    check_enabled: true,
    bank_enabled: false,
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  // The incident code in this process, on the stack's engines (it records the test's failures).
  Object.assign(process.env, stack.env);
  (await import('../../functions/lib/aws/clients.js')).resetClients();
  modules = {
    service: await import('../../functions/incidents/service.js'),
    users: await import('../../functions/users/store.js'),
  };
});

afterAll(async () => {
  await api('put', '/super/notification/tg', {
    check_chat_id: CHAT,
    bank_chat_id: '',
    check_enabled: false,
    bank_enabled: false,
  });
  k.destroy();
});

describe('a Telegram link ends with the sessions it was made in', () => {
  it('a password change refuses the old token and a press from the link made before it, and tells the chat', async () => {
    const user = await linkedUser();
    const changed = await api('post', '/pwd', { old_pwd: user.password, pwd: 'operator-pass-2' }, user.token);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    // The token issued before the change is refused.
    const old = await api('get', '/info', undefined, user.token);
    expect(old.status).toBe(401);
    await expectEnded(user, await login(stack.url, user.username, 'operator-pass-2'));
  });

  it('a logout ends it', async () => {
    const user = await linkedUser();
    expect((await api('post', '/logout', {}, user.token)).status).toBe(200);
    await expectEnded(user, await login(stack.url, user.username, user.password));
  });

  it("a super user's reset of the password ends it", async () => {
    const user = await linkedUser();
    expect((await api('put', `/super/users/${user.id}/pwd`, { pwd: 'operator-pass-3' })).status).toBe(200);
    await expectEnded(user, await login(stack.url, user.username, 'operator-pass-3'));
  });

  it('disabling the user ends it, and enabling again does not bring it back', async () => {
    const user = await linkedUser();
    expect((await api('put', `/super/users/${user.id}`, { enabled: false })).status).toBe(200);
    expect((await api('put', `/super/users/${user.id}`, { enabled: true })).status).toBe(200);
    await expectEnded(user, await login(stack.url, user.username, user.password));
  });

  it('a press checks the version itself: a link whose ending was not heard is refused and ended then', async () => {
    const user = await linkedUser();
    // The version bumped where no listener runs (this process registers none): the link is still there.
    await modules.users.userStore().revokeTokens(user.id);
    const token = await login(stack.url, user.username, user.password);
    expect((await api('get', '/telegram/link', undefined, token)).body.data).toMatchObject({ linked: true });
    const { message, incident } = await openIncident();
    const pressed = await press(message, `i:${incident.id}:ack`, user.tgId);
    expect(pressed).toMatchObject({ status: 200, answer: { text: 'Not allowed' } });
    expect(await incidentStatus(incident.id)).toBe(1);
    expect((await api('get', '/telegram/link', undefined, token)).body.data).toMatchObject({ linked: false });
    expect((await chatMessages(user.tgId)).map((m) => m.text).join('\n')).toContain(LINK_ENDED);
  });

  it('a link made after the change acts again', async () => {
    const user = await linkedUser();
    expect((await api('post', '/logout', {}, user.token)).status).toBe(200);
    const token = await login(stack.url, user.username, user.password);
    const code = await api('post', '/telegram/link-code', {}, token);
    await sandbox('updates/message', { from: { id: user.tgId }, text: `/start ${code.body.data.token}` });
    const { message, incident } = await openIncident();
    const pressed = await press(message, `i:${incident.id}:ack`, user.tgId);
    expect(pressed).toMatchObject({ status: 200, answer: { text: 'Acknowledged' } });
    expect(await incidentStatus(incident.id)).toBe(2);
  });
});

describe('the buttons', () => {
  it('answer a forged name that is no button of the table "Unknown button" and change nothing', async () => {
    const user = await linkedUser();
    const { siteId, message, incident } = await openIncident();
    for (const name of ['constructor', 'tostring', 'hasownproperty']) {
      const pressed = await press(message, `i:${incident.id}:${name}`, user.tgId, true);
      expect(pressed, name).toMatchObject({ status: 200, answer: { text: 'Unknown button' } });
    }
    // No maintenance window was started for the site, the incident is as it was, and no action was audited.
    const windows = (await api('get', '/maintenance?page_size=100')).body.data.result as { sites: unknown }[];
    expect(windows.filter((w) => JSON.stringify(w.sites) === JSON.stringify([siteId]))).toEqual([]);
    const detail = (await api('get', `/incidents/${incident.id}`)).body.data;
    expect(detail.status).toBe(1);
    expect(detail.timeline.map((e: { kind: string }) => e.kind)).toEqual(['failure']);
    const audit = (await api('get', `/super/audit?target=${encodeURIComponent(`incident#${incident.id}`)}`)).body.data
      .result as unknown[];
    expect(audit).toEqual([]);
  });
});

describe('the maintenance button', () => {
  it("extends the incident's own window instead of adding a row", async () => {
    const user = await linkedUser();
    const { siteId, name, message, incident } = await openIncident();
    const windowsOfSite = async () =>
      (
        (await api('get', `/maintenance?keyword=${encodeURIComponent(name)}&keywordField=name`)).body.data.result as {
          id: number;
          end_at: number;
          sites: number[];
        }[]
      ).filter((w) => w.sites.join() === String(siteId));
    const first = await press(message, `i:${incident.id}:mnt`, user.tgId);
    expect(first).toMatchObject({ status: 200, answer: { text: 'Maintenance started for 1 h' } });
    const [window] = await windowsOfSite();
    const second = await press(message, `i:${incident.id}:mnt`, user.tgId);
    expect(second).toMatchObject({ status: 200, answer: { text: 'Maintenance started for 1 h' } });
    const after = await windowsOfSite();
    expect(after).toHaveLength(1);
    expect(after[0].id).toBe(window.id);
    expect(after[0].end_at).toBeGreaterThanOrEqual(window.end_at);
    await api('delete', `/maintenance/${window.id}`);
  });
});

describe('re-runs', () => {
  it('one in flight per incident: a second press waits for the first one to end', async () => {
    const user = await linkedUser();
    const { siteId, message, incident } = await openIncident();
    const before = (await api('get', '/operations?page_size=1')).body.data.total_count as number;
    const first = await press(message, `i:${incident.id}:rerun`, user.tgId);
    expect(first).toMatchObject({ status: 200, answer: { text: 'Re-run started' } });
    const second = await press(message, `i:${incident.id}:rerun`, user.tgId);
    expect(second.answer.text).toMatch(/^A re-run of this incident is already running; try again in \d+ s$/);
    // From the console too.
    const console = await api('post', `/incidents/${incident.id}/action`, { action: 'rerun' });
    expect(console.status).toBe(429);
    expect(console.headers['retry-after']).toMatch(/^\d+$/);
    expect((await api('get', '/operations?page_size=1')).body.data.total_count).toBe(before + 1);

    // Its end is recorded on the incident: it may be re-run again.
    await until(
      'the re-run joins',
      async () => (await api('get', `/incidents?site_id==-${siteId}&page_size=10`)).body.data.result[0],
      (i) => i?.failures === 2,
      { ms: 150_000, everyMs: 500 },
    );
    const again = await press(message, `i:${incident.id}:rerun`, user.tgId);
    expect(again).toMatchObject({ status: 200, answer: { text: 'Re-run started' } });
  });

  it('are limited per user: the sixth in ten minutes is refused, over every incident', async () => {
    const user = await linkedUser();
    const actor = { id: user.id, nickname: `Nick ${user.username}` };
    const incidents = await Promise.all(Array.from({ length: 6 }, () => openIncident()));
    // The incident code in this process at one instant (its clock is the test's), with an engine
    // that starts nothing: the limit is the service's, whichever way the re-run came.
    const now = Date.now();
    let started = 0;
    const deps = { startCheck: async () => ({ id: 43_000_000 + ++started }) };
    const outcomes: (number | string)[] = [];
    for (const { incident } of incidents)
      outcomes.push(
        await modules.service
          .actOnIncident(incident.id, { action: 'rerun' }, actor, 'console', deps, now)
          .then((r) => r.operation_id as number)
          .catch((error: { status: number; message: string }) => `${error.status} ${error.message}`),
      );
    expect(outcomes.slice(0, 5)).toEqual([1, 2, 3, 4, 5].map((n) => 43_000_000 + n));
    expect(outcomes[5]).toMatch(/^429 Too many re-runs; try again in \d+ s$/);
    expect(started).toBe(5);
  });
});

describe('link codes', () => {
  it('are limited per user, and each claim expires with its code', async () => {
    const username = uniqueName('lkcodes');
    await k.createUser(username, 'viewer-pass-1', 'viewer');
    const token = await login(stack.url, username, 'viewer-pass-1');
    const codes: { token: string; expires_at: number }[] = [];
    for (let n = 0; n < 10; n++) {
      const res = await api('post', '/telegram/link-code', {}, token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      codes.push(res.body.data);
    }
    const refused = await api('post', '/telegram/link-code', {}, token);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe(ErrorCode.TooManyRequests);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    // The claim row carries the table's TTL at the code's own end.
    const claim = await k.rawItem(`unique#telegram_link#code#${codes[0].token.toLowerCase()}`, 'unique');
    expect(claim?.expires_at).toBe(Math.ceil(codes[0].expires_at / 1000));
  });
});

describe("the webhook's budget", () => {
  const dynamo = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: stack.env.AWS_REGION,
      endpoint: stack.env.DYNAMO_ENDPOINT,
      credentials: { accessKeyId: stack.env.AWS_ACCESS_KEY_ID, secretAccessKey: stack.env.AWS_SECRET_ACCESS_KEY },
    }),
  );
  // The flood spent the unlinked senders' shared budget of this minute: later test files' strangers get theirs back.
  afterAll(async () => {
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    for (const start of [minute, minute - 60_000])
      await dynamo.send(
        new DeleteCommand({
          TableName: stack.env.TABLE_NAME ?? 'patrol',
          Key: { pk: `rate#tg-unlinked-all#all#${start}`, sk: 'rate' },
        }),
      );
    dynamo.destroy();
  });

  it('keeps one unlinked account to its own budget: past it, its presses are dropped unanswered', async () => {
    const { message, incident } = await openIncident();
    const stranger = 9_700_000_000 + (Date.now() % 1_000_000);
    const answers: (string | null)[] = [];
    for (let n = 0; n < 21; n++)
      answers.push(((await press(message, `i:${incident.id}:ack`, stranger)).answer?.text ?? null) as string | null);
    // Ten a minute: 21 presses leave some unanswered even when a minute's boundary falls between them.
    expect(answers.slice(0, 2)).toEqual(['Not allowed', 'Not allowed']);
    expect(answers.filter((a) => a === null).length).toBeGreaterThan(0);
  });

  it("is per Telegram account: a flood from unlinked accounts never spends a linked operator's", async () => {
    const user = await linkedUser();
    const { message, incident } = await openIncident();
    // More presses from strangers than the whole webhook once allowed in a minute (600), each its own account.
    const base = 9_800_000_000 + (Date.now() % 1_000_000) * 1000;
    const strangers = Array.from({ length: 620 }, (_, i) => base + i);
    for (let i = 0; i < strangers.length; i += 20)
      await Promise.all(strangers.slice(i, i + 20).map((id) => press(message, `i:${incident.id}:ack`, id)));
    const pressed = await press(message, `i:${incident.id}:ack`, user.tgId);
    expect(pressed).toMatchObject({ status: 200, answer: { text: 'Acknowledged' } });
    expect(await incidentStatus(incident.id)).toBe(2);
  });
});
