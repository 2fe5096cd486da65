// Telegram through the running stack (issue 15 item 1): the super area's settings with an encrypted
// token, the test message, SendTG, and the automatic one-alert-per-operation delivery through the
// notify queue, all against the sandbox Bot API the local stack serves (TELEGRAM_API_URL).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { NotificationCategory, NotifyStatus, RunStatus } from '../../shared/enums.js';
import { ErrorCode } from '../../shared/errors.js';
import { login } from '../helpers/api.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { until } from '../helpers/until.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
const tgUrl = stack.env.TELEGRAM_API_URL;
const TOKEN = `7001002003:AAH-${uniqueName('tgtoken').replace(/[^A-Za-z0-9_-]/g, '')}xxxxxxxxxxxx`;
let admin: string;
let operator: string;
let chatSeq = Date.now() % 1_000_000;
const newChat = () => `-100${++chatSeq}`;

const dynamo = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    region: stack.env.AWS_REGION,
    endpoint: stack.env.DYNAMO_ENDPOINT,
    credentials: { accessKeyId: stack.env.AWS_ACCESS_KEY_ID, secretAccessKey: stack.env.AWS_SECRET_ACCESS_KEY },
  }),
);

type Received = { seq: number; at: number; status: number; text: string; chat_id: string };
async function sandbox(path: string, body?: unknown) {
  const res = await fetch(`${tgUrl}/sandbox/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}
const received = async (chat: string): Promise<Received[]> => (await sandbox(`messages?chat_id=${chat}`)).messages;

const api = (method: 'get' | 'put' | 'post', path: string, body?: unknown, token = admin) =>
  client[method](`/api/v1${path}`, { token, ...(body !== undefined ? { body } : {}) });

const settings = (over: Record<string, unknown> = {}) => ({
  check_chat_id: newChat(),
  bank_chat_id: newChat(),
  check_enabled: true,
  bank_enabled: false,
  per_subtask: false,
  ...over,
});

async function configure(over: Record<string, unknown> = {}) {
  const body = settings(over);
  const res = await api('put', '/super/notification/tg', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return body as ReturnType<typeof settings>;
}

/** Runs a check of a new sandbox site and waits until its operation has ended. */
async function failingCheck(siteName: string) {
  const site = await api('post', '/sites', {
    name: siteName,
    url: stack.env.SANDBOX_SITE_URL,
    // 'locked' accounts fail their login on the sandbox site: every subtask of the task fails.
    accounts: [{ user: uniqueName('locked'), pwd: 'sandbox123' }],
  });
  expect(site.status, JSON.stringify(site.body)).toBe(200);
  const started = await api('post', `/sites/${site.body.data.id}/check`, {
    points: [
      { point: 1, modes: [1] },
      { point: 2, modes: [1, 3] },
    ],
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const id = started.body.data.id as number;
  await until(
    `operation ${id}`,
    async () => (await api('get', `/operations/${id}/tasks`)).body.data.operation.status,
    (s) => s === RunStatus.values.Failed || s === RunStatus.values.Done,
    { ms: 150_000, everyMs: 400 },
  );
  return id;
}

async function notificationsOf(operationId: number) {
  const res = await api('get', '/notifications?page_size=100&sort={"id":"desc"}');
  return (res.body.data.result as Record<string, unknown>[]).filter((n) => n.link === `/operations/${operationId}`);
}

beforeAll(async () => {
  expect(tgUrl, 'the stack serves the sandbox Bot API').toBeTruthy();
  admin = await k.admin();
  const name = uniqueName('tgop');
  await k.createUser(name, 'operator-pass-1');
  operator = await login(stack.url, name, 'operator-pass-1');
  const first = await api('put', '/super/notification/tg', { ...settings(), bot_token: TOKEN });
  expect(first.status, JSON.stringify(first.body)).toBe(200);
});
afterAll(async () => {
  // Later test files of this stack should not post to the sandbox on every check.
  await api('put', '/super/notification/tg', settings({ check_enabled: false }));
  k.destroy();
  dynamo.destroy();
});

describe('TG settings', () => {
  it('are for super users only: an operator is refused every call', async () => {
    for (const [method, path, body] of [
      ['get', '/super/notification/tg', undefined],
      ['put', '/super/notification/tg', settings()],
      ['post', '/super/notification/tg/test', { category: 'check' }],
    ] as const) {
      const res = await api(method, path, body, operator);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe(ErrorCode.Forbidden);
    }
  });

  it('keep the token encrypted and show it masked; a save without a token keeps it', async () => {
    const chosen = await configure();
    const res = await api('get', '/super/notification/tg');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      bot_token_set: true,
      bot_token: `${TOKEN.slice(0, 2)}***${TOKEN.slice(-2)}`,
      check_chat_id: chosen.check_chat_id,
      check_enabled: true,
      per_subtask: false,
    });
    expect(JSON.stringify(res.body)).not.toContain(TOKEN.split(':')[1]);
    const stored = await k.rawItem('telegramSettings#1', 'item');
    expect(stored?.bot_token_enc).toEqual(expect.any(String));
    expect(JSON.stringify(stored)).not.toContain(TOKEN.split(':')[1]);
  });

  it('refuse a malformed token or chat, and switching a category on without its chat, writing nothing', async () => {
    const before = (await api('get', '/super/notification/tg')).body.data;
    const bad = await api('put', '/super/notification/tg', {
      ...settings(),
      bot_token: 'not a token',
      check_chat_id: 'x y',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.extra)).toEqual(expect.arrayContaining(['bot_token', 'check_chat_id']));
    const noChat = await api('put', '/super/notification/tg', settings({ bank_enabled: true, bank_chat_id: '' }));
    expect(noChat.status).toBe(400);
    expect(noChat.body.extra.bank_chat_id).toBe('Please enter the chat id of this category first');
    expect((await api('get', '/super/notification/tg')).body.data).toEqual(before);
  });

  it('never put the token in an audit row or a log line', async () => {
    const out = await dynamo.send(
      new QueryCommand({
        TableName: stack.env.TABLE_NAME,
        IndexName: 'byType',
        KeyConditionExpression: 'gsi1pk = :t',
        ExpressionAttributeValues: { ':t': 'audit' },
        ScanIndexForward: false,
        Limit: 200,
      }),
    );
    const rows = (out.Items ?? []).filter((r) => String(r.action ?? '').startsWith('telegram_settings'));
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(TOKEN.split(':')[1]);
    expect(readFileSync(join(stack.dataDir, 'stack.log'), 'utf8')).not.toContain(TOKEN.split(':')[1]);
  });
});

describe('the test message', () => {
  it('reaches the chat of its category and answers with what Telegram answered', async () => {
    const chosen = await configure();
    const res = await api('post', '/super/notification/tg/test', { category: 'bank' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      category: 'bank',
      chat_id: chosen.bank_chat_id,
      ok: true,
      answer: { ok: true, result: { message_id: 1, chat: { id: Number(chosen.bank_chat_id) } } },
    });
    const [sent] = await received(chosen.bank_chat_id);
    expect(sent).toMatchObject({ status: 200 });
    expect(sent.text).toContain('Patrol test message');
  });

  it('honours a 429’s retry_after and then gets through', async () => {
    const chosen = await configure();
    await sandbox('rate-limit', { count: 1, retry_after: 2, chat_id: chosen.check_chat_id });
    const res = await api('post', '/super/notification/tg/test', { category: 'check' });
    expect(res.body.data).toMatchObject({ ok: true });
    const attempts = await received(chosen.check_chat_id);
    expect(attempts.map((a) => a.status)).toEqual([429, 200]);
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(2000);
  });

  it('shows a refusal as Telegram worded it', async () => {
    const chosen = await configure();
    await sandbox(`chats/${chosen.check_chat_id}`, { state: 'missing' });
    const res = await api('post', '/super/notification/tg/test', { category: 'check' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      ok: false,
      answer: { ok: false, error_code: 400, description: 'Bad Request: chat not found' },
      error: '400 Bad Request: chat not found',
    });
  });
});

describe('check notifications on Telegram', () => {
  let operationId: number;
  let chat: string;
  const siteName = uniqueName('<script>alert(1)</script> Shop ');

  beforeAll(async () => {
    chat = (await configure()).check_chat_id;
    operationId = await failingCheck(siteName);
  }, 200_000);

  it('an operation with failures sends no summary: its incident’s one message tells it', async () => {
    const messages = await until(
      'the incident message',
      () => received(chat),
      (m) => m.length >= 1,
      { ms: 30_000, everyMs: 400 },
    );
    // Anything else would have arrived by now: the subtask, task and operation notifications came first.
    await new Promise((r) => setTimeout(r, 3000));
    expect(await received(chat)).toHaveLength(1);
    const [message] = messages;
    expect(message.status).toBe(200);
    // Login failed: the (site, Login, D4) incident. The place-bet subtasks failed with it, unrun: no incident of theirs.
    expect(message.text).toContain('Failing: incident');
    expect(message.text).toContain('Login Account (D4)');
    expect(message.text).not.toContain(`Operation ${operationId}`);
    // The site's name, typed by an operator, arrives as text.
    expect(message.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Shop');
    expect(message.text).not.toContain('<script>');

    const mine = await notificationsOf(operationId);
    const op = mine.find((n) => n.category === NotificationCategory.values.Operation);
    expect(op).toMatchObject({ status_tg: NotifyStatus.values.NoNeed, tg_remark: 'Told by its incident messages' });
    for (const n of mine.filter((n) => n.category !== NotificationCategory.values.Operation))
      expect(n.status_tg).toBe(NotifyStatus.values.NoNeed);
  });

  it('an operation that reached no incident keeps its one summary message, with its sites and a link', async () => {
    const chosen = await configure();
    const site = await api('post', '/sites', {
      name: uniqueName('Passing '),
      url: stack.env.SANDBOX_SITE_URL,
      accounts: [{ user: uniqueName('agent'), pwd: 'sandbox123' }],
    });
    const started = await api('post', `/sites/${site.body.data.id}/check`, { points: [{ point: 1, modes: [1] }] });
    const id = started.body.data.id as number;
    await until(
      `operation ${id}`,
      async () => (await api('get', `/operations/${id}/tasks`)).body.data.operation.status,
      (s) => s === RunStatus.values.Done,
      { ms: 150_000, everyMs: 400 },
    );
    const [message] = await until(
      'the summary',
      () => received(chosen.check_chat_id),
      (m) => m.length >= 1,
    );
    expect(message.text).toContain(`Operation ${id} done`);
    expect(message.text).toContain(site.body.data.name);
    expect(message.text).toContain(`href="${stack.url}/operations/${id}"`);
    await configure({ check_chat_id: chat });
  }, 200_000);

  it('SendTG sends one notification on demand', async () => {
    const [subtask] = (await notificationsOf(operationId)).filter(
      (n) => n.category === NotificationCategory.values.Subtask,
    );
    const before = (await received(chat)).length;
    const res = await api('post', `/notifications/${subtask.id}/notify`, { channel: 2 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ id: subtask.id, status_tg: NotifyStatus.values.Success });
    const after = await received(chat);
    expect(after).toHaveLength(before + 1);
    expect(after[after.length - 1].text).toContain(String(subtask.title).split(':')[1].trim().split(' ')[0]);
  });

  it('SendTG refuses another channel and an unknown notification', async () => {
    const [n] = await notificationsOf(operationId);
    expect((await api('post', `/notifications/${n.id}/notify`, { channel: 1 })).status).toBe(400);
    expect((await api('post', '/notifications/987654321/notify', { channel: 2 })).status).toBe(404);
  });

  it('a 403 turns the channel Failed with the reason, on the notification and in the settings', async () => {
    await sandbox(`chats/${chat}`, { state: 'blocked' });
    const [n] = await notificationsOf(operationId);
    const res = await api('post', `/notifications/${n.id}/notify`, { channel: 2 });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      code: ErrorCode.TelegramSendFailed,
      msg: '403 Forbidden: bot was kicked from the group chat',
    });
    const read = await api('put', `/notifications/${n.id}`);
    expect(read.body.data).toMatchObject({
      status_tg: NotifyStatus.values.Failed,
      tg_remark: '403 Forbidden: bot was kicked from the group chat',
    });
    const tg = (await api('get', '/super/notification/tg')).body.data;
    expect(tg.channels.check).toMatchObject({
      state: 'failed',
      reason: '403 Forbidden: bot was kicked from the group chat',
    });
  });
});

describe('per-subtask messages', () => {
  it('when switched on, every finished subtask also gets its message, beside the incident’s', async () => {
    const chat = (await configure({ per_subtask: true })).check_chat_id;
    const id = await failingCheck(uniqueName('PerSub '));
    const subtaskNotes = (await notificationsOf(id)).filter((n) => n.category === NotificationCategory.values.Subtask);
    expect(subtaskNotes.length).toBeGreaterThan(0);
    const expected = subtaskNotes.length + 1;
    await until(
      `${expected} messages`,
      () => received(chat),
      (m) => m.length >= expected,
      { ms: 30_000, everyMs: 400 },
    );
    await new Promise((r) => setTimeout(r, 2000));
    const messages = await received(chat);
    expect(messages).toHaveLength(expected);
    expect(messages.filter((m) => m.text.includes('Failing: incident'))).toHaveLength(1);
    expect(messages.filter((m) => m.text.includes(`Operation ${id} finished`))).toEqual([]);
    for (const n of subtaskNotes) expect(messages.some((m) => m.text.includes(String(n.caption)))).toBe(true);
  }, 200_000);
});

describe('two deliveries of one notification at once', () => {
  // The check engine may enqueue a delivery again after a crash (its follow-ups are applied again),
  // and a start enqueues every Pending one: a notification must still be posted once.
  it('post one message: the one that finds it claimed comes back later and finds it sent', async () => {
    const chat = (await configure()).check_chat_id;
    Object.assign(process.env, stack.env);
    (await import('../../functions/lib/aws/clients.js')).resetClients();
    const { pendingTelegramNotification } = await import('../helpers/pendingNotification.js');
    const { notificationStore } = await import('../../functions/notifications/store.js');
    const { deliverNotification, TelegramRetryLaterError } = await import(
      '../../functions/notifications/telegram/deliverNotification.js'
    );
    const n = await pendingTelegramNotification({ title: uniqueName('Twice at once '), caption: 'claim test' });

    const both = await Promise.allSettled([0, 1].map(() => deliverNotification(n.id, { mode: 'auto' })));
    expect(await received(chat)).toHaveLength(1);
    for (const outcome of both)
      if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(TelegramRetryLaterError);

    // The queue brings the message that waited back: sent by then, it posts nothing more.
    await deliverNotification(n.id, { mode: 'auto' });
    expect(await received(chat)).toHaveLength(1);
    expect((await notificationStore().get(n.id))?.status_tg).toBe(NotifyStatus.values.Success);
  });
});
