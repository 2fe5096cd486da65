import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStatus } from '../../shared/enums.js';
import { login } from '../helpers/api.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import type { StackInfo } from '../helpers/globalStack.js';
import { type RunningStack, startStackProcess, stopStackProcess } from '../helpers/stackProcess.js';
import { until } from '../helpers/until.js';

// Issue 45 items 3-5 on a stack of its own, with the alerts config's defaults (a 30 s group wait,
// three sites within ten minutes make a parent, escalation after 15 minutes), which the shared
// stack turns off (tests/helpers/alertsConfig.ts): a burst of failures of one check makes one parent
// and one message; a control site failing puts the others under "Checker unhealthy"; an incident
// nobody acknowledges escalates to the escalation chat, then to the linked super users' own chats
// (on a clock the test moves), and an acknowledgement from the escalation chat stops it; /status
// answers with the open incidents. Telegram is the sandbox Bot API.

const PASSWORD = 'grouping-test-pass-1';
const TOKEN = `7001002045:AAH-${uniqueName('grouptoken').replace(/[^A-Za-z0-9_-]/g, '')}xxxxxxxxxxxx`;
const CHAT = '-1004500000001';
const ESCALATION_CHAT = '-1004500000002';
const GROUP_WAIT_MS = 30_000;
const MINUTE = 60_000;

const dataDir = await mkdtemp(join(tmpdir(), 'patrol-grouping-'));
let stack: RunningStack | undefined;
let info: StackInfo;
let k: ReturnType<typeof kit>;
let admin: string;

interface ChatMessage {
  message_id: number;
  text: string;
  edits: number;
  reply_to_message_id: number | null;
  reply_markup: { inline_keyboard: { text: string; callback_data?: string; url?: string }[][] } | null;
}
interface Row {
  id: number;
  site_id: number | null;
  site_name: string | null;
  status: number;
  parent_id: number | null;
  cause: string | null;
  children: number;
  severity: string;
}

const api = (method: 'get' | 'put' | 'post' | 'delete', path: string, body?: unknown, token = admin) =>
  k.client[method](`/api/v1${path}`, { token, ...(body !== undefined ? { body } : {}) });
async function sandbox(path: string, body?: unknown) {
  const res = await fetch(`${info.env.TELEGRAM_API_URL}/sandbox/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}
const chat = async (id: string | number): Promise<ChatMessage[]> =>
  (await sandbox(`chats/${encodeURIComponent(String(id))}/messages`)).messages ?? [];
const incidents = async (query = '') =>
  (await api('get', `/incidents?page_size=100${query}`)).body.data.result as Row[];
const buttonsOf = (m: ChatMessage) => m.reply_markup?.inline_keyboard.flat().map((b) => b.text) ?? [];

/** A site whose enabled account the sandbox site locks, so its login (D4) fails; `heal` makes it pass. */
async function failingSite(prefix: string, control = false) {
  const name = uniqueName(prefix);
  const site = await api('post', '/sites', {
    name,
    url: info.env.SANDBOX_SITE_URL,
    accounts: [
      { user: uniqueName('locked'), pwd: 'sandbox123' },
      { user: uniqueName('agent'), pwd: 'sandbox123' },
    ],
    control,
  });
  expect(site.status, JSON.stringify(site.body)).toBe(200);
  expect(site.body.data.control).toBe(control);
  const accounts = (await api('get', `/sites/${site.body.data.id}/accounts`)).body.data as {
    id: number;
    user: string;
  }[];
  const bad = accounts.find((a) => a.user.startsWith('locked')) as { id: number };
  const ok = accounts.find((a) => a !== bad) as { id: number };
  expect((await api('put', `/sites/accounts/${ok.id}`, { enable: false })).status).toBe(200);
  return {
    id: site.body.data.id as number,
    name,
    async heal() {
      expect((await api('put', `/sites/accounts/${ok.id}`, { enable: true })).status).toBe(200);
      expect((await api('put', `/sites/accounts/${bad.id}`, { enable: false })).status).toBe(200);
    },
  };
}

/** One batch check of the sites' login (D4), to its end. */
async function checkLogin(siteIds: number[]) {
  const started = await api('post', '/sites/check', { sites: siteIds, points: [{ point: 1, modes: [1] }] });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return until(
    `operation ${started.body.data.id}`,
    async () => (await api('get', `/operations/${started.body.data.id}/tasks`)).body.data.operation.status,
    (s) => s === RunStatus.values.Failed || s === RunStatus.values.Done,
    { ms: 150_000, everyMs: 500 },
  );
}

/** A console user linked to Telegram account `tgId` through /start, as Telegram delivers it. */
async function linked(role: 'super' | 'operator', tgId: number, username = uniqueName(role)) {
  const password = `${role}-pass-12`;
  if (username !== 'admin') await k.createUser(username, password, role);
  const token = username === 'admin' ? admin : await login(info.url, username, password);
  const code = await api('post', '/telegram/link-code', {}, token);
  expect(code.status, JSON.stringify(code.body)).toBe(200);
  await sandbox('updates/message', {
    from: { id: tgId, username: `tg_${tgId}` },
    text: `/start ${code.body.data.token}`,
  });
  expect((await api('get', '/telegram/link', undefined, token)).body.data.linked).toBe(true);
  return { tgId, token };
}

let modules: {
  service: typeof import('../../functions/incidents/service.js');
  escalation: typeof import('../../functions/incidents/escalation.js');
};

beforeAll(async () => {
  stack = await startStackProcess({ dataDir, adminPassword: PASSWORD });
  info = { url: stack.url, adminPassword: PASSWORD, dataDir, env: stack.env };
  k = kit(info);
  admin = await k.admin();
  const config = (await api('get', '/super/system-config')).body.data.document;
  // The defaults this test relies on.
  expect(config.alerts).toMatchObject({
    group_wait_seconds: 30,
    correlate_min_sites: 3,
    correlate_window_minutes: 10,
    escalate_after_minutes: 15,
  });
  const saved = await api('put', '/super/notification/tg', {
    bot_token: TOKEN,
    check_chat_id: CHAT,
    bank_chat_id: '',
    check_enabled: true,
    bank_enabled: false,
    escalation_chat_id: ESCALATION_CHAT,
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  expect(saved.body.data.escalation_chat_id).toBe(ESCALATION_CHAT);
  // The incident code in this process, on the stack's engines (escalation's clock is the test's).
  Object.assign(process.env, stack.env);
  (await import('../../functions/lib/aws/clients.js')).resetClients();
  modules = {
    service: await import('../../functions/incidents/service.js'),
    escalation: await import('../../functions/incidents/escalation.js'),
  };
});

afterAll(async () => {
  k?.destroy();
  if (stack) await stopStackProcess(stack.child);
  if (!process.env.KEEP_TEST_DATA) await rm(dataDir, { recursive: true, force: true });
});

describe('correlated incidents', () => {
  it('three sites failing Login D4 together make one parent and one message; the parent resolves with its last child', async () => {
    const sites = [await failingSite('Burst A '), await failingSite('Burst B '), await failingSite('Burst C ')];
    const started = Date.now();
    expect(await checkLogin(sites.map((s) => s.id))).toBe(RunStatus.values.Failed);

    const parent = (
      await until(
        'a same-check parent with the three',
        async () => (await incidents()).filter((i) => i.cause === 'same_check'),
        (ps) => ps.length === 1 && ps[0].children === 3,
      )
    )[0];
    expect(parent).toMatchObject({ site_id: null, process: 1, mode: 1, severity: 'warning', status: 1 });
    const children = await incidents(`&parent_id==-${parent.id}`);
    expect(children.map((c) => c.site_id).sort()).toEqual(sites.map((s) => s.id).sort());

    // The group wait: nothing before 30 s, then the parent's one message with the count and the names.
    const [message] = await until(
      "the parent's message",
      async () => (await chat(CHAT)).filter((m) => m.text.includes(`incident #${parent.id}`)),
      (ms) => ms.length === 1,
      { ms: 90_000, everyMs: 500 },
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(GROUP_WAIT_MS);
    expect(message.text).toContain('Login Account (D4) on several sites');
    expect(message.text).toContain('3 incident(s)');
    for (const s of sites) expect(message.text).toContain(s.name);
    expect(buttonsOf(message)).toContain('Acknowledge');
    // The children's own first messages (their group wait ended before the parent's) were not sent.
    await new Promise((r) => setTimeout(r, 3_000));
    const texts = (await chat(CHAT)).map((m) => m.text);
    for (const c of children) expect(texts.filter((t) => t.includes(`incident #${c.id}`))).toEqual([]);
    for (const s of sites) expect(texts.filter((t) => t.includes(s.name))).toHaveLength(1);

    // A child that resolves leaves; the parent resolves with its last child.
    await sites[0].heal();
    expect(await checkLogin([sites[0].id])).toBe(RunStatus.values.Done);
    await until(
      'the parent with two',
      async () => (await api('get', `/incidents/${parent.id}`)).body.data,
      (p) => p.children === 2 && p.status === 1,
    );
    await sites[1].heal();
    await sites[2].heal();
    expect(await checkLogin([sites[1].id, sites[2].id])).toBe(RunStatus.values.Done);
    const resolved = await until(
      'the parent resolved',
      async () => (await api('get', `/incidents/${parent.id}`)).body.data,
      (p) => p.status === 4,
    );
    expect(resolved.children).toBe(0);
    await until(
      "the parent's message says so",
      async () => (await chat(CHAT)).find((m) => m.message_id === message.message_id),
      (m) => Boolean(m?.text.includes('Resolved: incident')),
    );
  });
});

describe('escalation', () => {
  let supers: { tgId: number }[];
  let operator: { tgId: number };

  beforeAll(async () => {
    supers = [await linked('super', 450_001, 'admin'), await linked('super', 450_002)];
    operator = await linked('operator', 450_003);
  });

  /**
   * A site's failure of `process` (D4) recorded at `t0` by the incident code (escalation runs on a
   * moved clock); each test its own process, so three of them do not make a same-check parent.
   * `pass` resolves it, so the checker's test below finds none of them open.
   */
  async function openIncident(prefix: string, process: 2 | 3 | 4) {
    const site = await failingSite(prefix);
    const t0 = Date.now();
    const end = (status: number, offset: number) =>
      modules.service.recordIncidentResult({
        id: 45_000_000 + (t0 % 1_000_000) * 10 + offset,
        operation_id: 45_000,
        site_id: site.id,
        process,
        mode: 1,
        status,
        msg: status === RunStatus.values.Failed ? 'Login failed' : 'Passed',
        end_at: Date.now(),
      });
    await end(RunStatus.values.Failed, 0);
    const [incident] = await incidents(`&site_id==-${site.id}`);
    const [message] = await until(
      `incident ${incident.id}'s message`,
      async () => (await chat(CHAT)).filter((m) => m.text.includes(`incident #${incident.id}`)),
      (ms) => ms.length === 1,
      { ms: 90_000, everyMs: 500 },
    );
    return { site, t0, incident, message, pass: () => end(RunStatus.values.Done, 1) };
  }
  const about = async (chatId: string | number, id: number) =>
    (await chat(chatId)).filter((m) => m.text.includes(`incident #${id}`));

  it('goes to the escalation chat after 15 minutes, then to each linked super user, each step once', async () => {
    const { t0, incident, message, pass } = await openIncident('Escalate ', 2);
    expect(await modules.escalation.escalateIncidents(t0 + 14 * MINUTE)).not.toContain(incident.id);

    expect(await modules.escalation.escalateIncidents(t0 + 15 * MINUTE + 1000)).toContain(incident.id);
    const [first] = await until(
      'the escalation chat',
      () => about(ESCALATION_CHAT, incident.id),
      (ms) => ms.length === 1,
    );
    expect(first.text).toContain('Escalated');
    expect(buttonsOf(first)).toContain('Acknowledge');
    await until(
      'the original message edited',
      async () => (await chat(CHAT)).find((m) => m.message_id === message.message_id),
      (m) => Boolean(m?.text.includes('Escalated to the escalation chat')),
    );
    // The same tick again takes no step.
    expect(await modules.escalation.escalateIncidents(t0 + 15 * MINUTE + 2000)).not.toContain(incident.id);

    expect(await modules.escalation.escalateIncidents(t0 + 30 * MINUTE + 1000)).toContain(incident.id);
    for (const s of supers)
      await until(
        `super ${s.tgId}'s own chat`,
        () => about(s.tgId, incident.id),
        (ms) => ms.length === 1,
      );
    expect(await about(operator.tgId, incident.id)).toEqual([]);
    expect(await about(ESCALATION_CHAT, incident.id)).toHaveLength(1);
    const detail = (await api('get', `/incidents/${incident.id}`)).body.data;
    expect(detail.timeline.filter((e: { kind: string }) => e.kind === 'escalated')).toHaveLength(2);
    // No third step.
    expect(await modules.escalation.escalateIncidents(t0 + 60 * MINUTE)).not.toContain(incident.id);
    await pass();
  });

  it('stops when someone acknowledges from the escalation chat', async () => {
    const { t0, incident, pass } = await openIncident('Ack stops ', 3);
    expect(await modules.escalation.escalateIncidents(t0 + 15 * MINUTE + 1000)).toContain(incident.id);
    const [escalated] = await until(
      'the escalation chat',
      () => about(ESCALATION_CHAT, incident.id),
      (ms) => ms.length === 1,
    );
    const pressed = await sandbox('updates/press', {
      chat_id: ESCALATION_CHAT,
      message_id: escalated.message_id,
      data: `i:${incident.id}:ack`,
      from: { id: operator.tgId },
    });
    expect(pressed.answer?.text).toBe('Acknowledged');
    expect((await api('get', `/incidents/${incident.id}`)).body.data.status).toBe(2);
    expect(await modules.escalation.escalateIncidents(t0 + 31 * MINUTE)).not.toContain(incident.id);
    await new Promise((r) => setTimeout(r, 2_000));
    for (const s of supers) expect(await about(s.tgId, incident.id)).toEqual([]);
    await pass();
  });

  it('/status answers a linked chat with the open incidents and their buttons, and an unlinked one "Not allowed"', async () => {
    const { incident, pass } = await openIncident('Status ', 4);
    const before = (await chat(CHAT)).length;
    await sandbox('updates/message', { from: { id: operator.tgId }, chat_id: Number(CHAT), text: '/status' });
    const answered = await until(
      'the /status answer',
      async () => (await chat(CHAT)).slice(before),
      (ms) => ms.some((m) => m.text.includes(`incident #${incident.id}`)),
    );
    const mine = answered.find((m) => m.text.includes(`incident #${incident.id}`)) as ChatMessage;
    expect(buttonsOf(mine)).toEqual([
      'Acknowledge',
      'Re-run',
      'Snooze 1 h',
      'Snooze 4 h',
      'Start maintenance 1 h',
      'Open',
    ]);
    // The resolved parent of the burst is not among them.
    expect(answered.filter((m) => m.text.includes('on several sites'))).toEqual([]);

    await sandbox('updates/message', { from: { id: 459_999 }, text: '/status' });
    await until(
      'the refusal',
      () => chat(459_999),
      (ms) => ms.length === 1,
    );
    expect((await chat(459_999))[0].text).toBe('Not allowed');
    await pass();
  });
});

describe('the checker itself', () => {
  it('a control site failing puts the other failures of those minutes under one "Checker unhealthy" parent', async () => {
    const control = await failingSite('Control ', true);
    const others = [await failingSite('Beside A '), await failingSite('Beside B ')];
    // The flag is the site's own: switched off and on again (PUT /sites/{id}), and listed.
    expect((await api('put', `/sites/${control.id}`, { control: false })).body.data.control).toBe(false);
    expect((await api('put', `/sites/${control.id}`, { control: true })).body.data.control).toBe(true);
    expect((await api('put', `/sites/${control.id}`, { control: 'yes' })).status).toBe(400);
    const listed = (await api('get', '/sites?page_size=100')).body.data.result as { id: number; control: boolean }[];
    expect(listed.filter((s) => s.control).map((s) => s.id)).toEqual([control.id]);
    expect(await checkLogin([control.id, ...others.map((s) => s.id)])).toBe(RunStatus.values.Failed);
    const parent = (
      await until(
        'the checker parent',
        async () => (await incidents()).filter((i) => i.cause === 'checker' && i.status !== 4),
        (ps) => ps.length === 1 && ps[0].children === 3,
      )
    )[0];
    expect(parent.site_name).toBe('Checker unhealthy');
    const children = await incidents(`&parent_id==-${parent.id}`);
    expect(children.map((c) => c.site_id).sort()).toEqual([control.id, ...others.map((s) => s.id)].sort());
    // No same-check parent holds any of them (one may have formed first and been emptied).
    expect((await incidents()).filter((i) => i.cause === 'same_check' && i.status !== 4)).toEqual([]);
    const [message] = await until(
      "the checker's message",
      async () => (await chat(CHAT)).filter((m) => m.text.includes(`incident #${parent.id}`)),
      (ms) => ms.length === 1,
      { ms: 90_000, everyMs: 500 },
    );
    expect(message.text).toContain('Checker unhealthy');
    for (const s of [control, ...others]) expect(message.text).toContain(s.name);
  });
});
