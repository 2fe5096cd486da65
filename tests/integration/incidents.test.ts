// Incidents on the stack with the sandbox site and the sandbox Bot API (issue 27, items 1, 2, 4):
// failures of one (site, process, mode) make one incident and one Telegram message edited in place;
// a pass resolves it with an edit and a reply; its buttons act through the real webhook path with
// the secret header, for linked operators only; a silent window sends nothing; reminders follow a
// clock the test moves.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RunStatus } from '../../shared/enums.js';
import { login } from '../helpers/api.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { until } from '../helpers/until.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
const tgUrl = stack.env.TELEGRAM_API_URL;
const TOKEN = `7001002004:AAH-${uniqueName('inctoken').replace(/[^A-Za-z0-9_-]/g, '')}xxxxxxxxxxxx`;
const CHAT = `-100${Date.now() % 1_000_000_000}`;
let admin: string;

interface ChatMessage {
  message_id: number;
  text: string;
  edits: number;
  silent: boolean;
  reply_to_message_id: number | null;
  reply_markup: { inline_keyboard: { text: string; callback_data?: string; url?: string }[][] } | null;
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
const chatMessages = async (): Promise<ChatMessage[]> =>
  (await sandbox(`chats/${encodeURIComponent(CHAT)}/messages`)).messages;
const messagesAbout = async (siteName: string) => (await chatMessages()).filter((m) => m.text.includes(siteName));

/** A site whose enabled account fails its login on the sandbox site; `good` passes once enabled. */
async function failingSite() {
  const name = uniqueName('Incident site ');
  const site = await api('post', '/sites', {
    name,
    url: stack.env.SANDBOX_SITE_URL,
    accounts: [
      { user: uniqueName('locked'), pwd: 'sandbox123' },
      { user: uniqueName('agent'), pwd: 'sandbox123' },
    ],
  });
  expect(site.status, JSON.stringify(site.body)).toBe(200);
  const [locked, good] = (await api('get', `/sites/${site.body.data.id}/accounts`)).body.data as {
    id: number;
    user: string;
  }[];
  const [bad, ok] = locked.user.startsWith('locked') ? [locked, good] : [good, locked];
  expect((await api('put', `/sites/accounts/${ok.id}`, { enable: false })).status).toBe(200);
  return {
    id: site.body.data.id as number,
    name,
    /** From now on its checks pass: the good account alone is enabled. */
    async heal() {
      expect((await api('put', `/sites/accounts/${ok.id}`, { enable: true })).status).toBe(200);
      expect((await api('put', `/sites/accounts/${bad.id}`, { enable: false })).status).toBe(200);
    },
  };
}

async function waitOperation(id: number) {
  return until(
    `operation ${id}`,
    async () => (await api('get', `/operations/${id}/tasks`)).body.data.operation.status,
    (s) => s === RunStatus.values.Failed || s === RunStatus.values.Done,
    { ms: 150_000, everyMs: 400 },
  );
}

/** One check of the site's login (D4), to its end. */
async function checkLogin(siteId: number) {
  const started = await api('post', `/sites/${siteId}/check`, { points: [{ point: 1, modes: [1] }] });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return waitOperation(started.body.data.id);
}

const incidentsOf = async (siteId: number) =>
  (await api('get', `/incidents?site_id==-${siteId}&page_size=100`)).body.data.result as Record<string, unknown>[];

/** Links a new console user's Telegram account through /start, as Telegram delivers it. */
async function linkedUser(role: 'operator' | 'viewer', tgId: number) {
  const username = uniqueName(role);
  await k.createUser(username, `${role}-pass-1`, role);
  const token = await login(stack.url, username, `${role}-pass-1`);
  const code = await api('post', '/telegram/link-code', {}, token);
  expect(code.status, JSON.stringify(code.body)).toBe(200);
  const delivered = await sandbox('updates/message', {
    from: { id: tgId, username: `tg_${username}` },
    text: `/start ${code.body.data.token}`,
  });
  expect(delivered.status).toBe(200);
  expect((await api('get', '/telegram/link', undefined, token)).body.data).toMatchObject({
    linked: true,
    telegram: { id: tgId, username: `tg_${username}` },
  });
  return { username, token, tgId, nickname: `Nick ${username}` };
}

/** A failing site checked once: its open incident and the incident's Telegram message. */
async function checkedIncident() {
  const site = await failingSite();
  await checkLogin(site.id);
  const [message] = await until(
    'the incident message',
    () => messagesAbout(site.name),
    (ms) => ms.length === 1,
  );
  const [incident] = await incidentsOf(site.id);
  return { site, message, incident };
}

/**
 * A failing site whose login failure is recorded by the incident code at the test's own instant
 * `t0`, so reminders can be ticked on a clock the test moves. `idBase` and `operationId` keep each
 * test's made-up subtask apart from the others'.
 */
async function recordedFailure(idBase: number, operationId: number) {
  const site = await failingSite();
  const t0 = Date.now();
  await modules.service.recordIncidentResult({
    id: idBase + (t0 % 1_000_000) * 10,
    operation_id: operationId,
    site_id: site.id,
    process: 1,
    mode: 1,
    status: RunStatus.values.Failed,
    msg: 'Login failed',
    end_at: t0,
  });
  const [incident] = await incidentsOf(site.id);
  return { site, t0, incident };
}

const press = (message: ChatMessage, data: string, tgId: number) =>
  sandbox('updates/press', { chat_id: CHAT, message_id: message.message_id, data, from: { id: tgId } });

let modules: {
  start: typeof import('../../functions/checks/start.js');
  service: typeof import('../../functions/incidents/service.js');
  telegram: typeof import('../../functions/incidents/incidentTelegram.js');
  config: typeof import('../../functions/systemConfig/getSystemConfig.js');
};

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
  // Saving with a token registered the webhook at the stack's public URL, with a secret.
  expect(saved.body.data.webhook).toMatchObject({ state: 'ok', url: `${stack.url}/webhook/telegram` });
  const hooks = (await sandbox('webhooks')).webhooks as { bot_id: string; url: string; secret_set: boolean }[];
  expect(hooks).toContainEqual({ bot_id: '7001002004', url: `${stack.url}/webhook/telegram`, secret_set: true });
  // The incident code in this process, on the stack's engines (the reminders' clock is the test's).
  Object.assign(process.env, stack.env);
  (await import('../../functions/lib/aws/clients.js')).resetClients();
  modules = {
    start: await import('../../functions/checks/start.js'),
    service: await import('../../functions/incidents/service.js'),
    telegram: await import('../../functions/incidents/incidentTelegram.js'),
    config: await import('../../functions/systemConfig/getSystemConfig.js'),
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

describe('an incident', () => {
  it('gathers three failures in one incident and one message edited twice; a pass resolves it with an edit and a reply', async () => {
    const site = await failingSite();
    for (let n = 1; n <= 3; n++) {
      expect(await checkLogin(site.id)).toBe(RunStatus.values.Failed);
      // Each change reaches the message before the next check, so the edits can be counted.
      await until(
        `the message after failure ${n}`,
        () => messagesAbout(site.name),
        (ms) => ms.length === 1 && ms[0].text.includes(`Failures: ${n}`),
        { ms: 30_000 },
      );
    }
    const [incident] = await incidentsOf(site.id);
    expect(await incidentsOf(site.id)).toHaveLength(1);
    expect(incident).toMatchObject({
      site_name: site.name,
      process: 1,
      mode: 1,
      status: 1,
      failures: 3,
      resolved_at: null,
    });
    const [message] = await messagesAbout(site.name);
    expect(message.edits).toBe(2);
    expect(message.text).toContain('Failing: incident');
    expect(message.reply_markup?.inline_keyboard.flat().map((b) => b.text)).toEqual([
      'Acknowledge',
      'Re-run',
      'Snooze 1 h',
      'Snooze 4 h',
      'Start maintenance 1 h',
      'Open',
    ]);
    // The operations reached an incident: no per-operation summary went to the chat.
    expect((await chatMessages()).filter((m) => m.text.includes('Operation') && m.text.includes(site.name))).toEqual(
      [],
    );

    await site.heal();
    expect(await checkLogin(site.id)).toBe(RunStatus.values.Done);
    const after = await until(
      'the resolution',
      () => messagesAbout(site.name),
      (ms) => ms.length === 2,
      { ms: 30_000 },
    );
    expect(after[0]).toMatchObject({ edits: 3 });
    expect(after[0].text).toContain('Resolved: incident');
    expect(after[0].reply_markup?.inline_keyboard.flat().map((b) => b.text)).toEqual(['Open']);
    expect(after[1]).toMatchObject({ reply_to_message_id: after[0].message_id });
    expect(after[1].text).toContain('Resolved');

    const detail = (await api('get', `/incidents/${incident.id}`)).body.data;
    expect(detail).toMatchObject({ status: 4, failures: 3 });
    expect(detail.resolved_at).toBeGreaterThan(0);
    expect(detail.timeline.map((e: { kind: string }) => e.kind)).toEqual(['failure', 'failure', 'failure', 'resolved']);
    expect(detail.timeline.every((e: { subtask_id: number | null }) => typeof e.subtask_id === 'number')).toBe(true);
  });

  it('opens nothing for a flaky pass: a login that fails once and passes on its retry', async () => {
    // The sandbox site answers this account's first login with a 500; the default config retries it.
    const user = uniqueName('flaky')
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(0, 20);
    const site = await api('post', '/sites', {
      name: uniqueName('Flaky site '),
      url: stack.env.SANDBOX_SITE_URL,
      accounts: [{ user, pwd: 'sandbox123' }],
    });
    expect(site.status, JSON.stringify(site.body)).toBe(200);
    const switched = await fetch(`${stack.env.SANDBOX_SITE_URL}/__sandbox/behaviour`, {
      method: 'POST',
      body: JSON.stringify({ failure: 'http500', user, process: 1, times: 1 }),
    });
    expect(switched.status).toBe(200);
    const started = await api('post', `/sites/${site.body.data.id}/check`, { points: [{ point: 1, modes: [1] }] });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(await waitOperation(started.body.data.id)).toBe(RunStatus.values.Done);
    const [sub] = (await api('get', `/check/subtasks?operation_id==-${started.body.data.id}`)).body.data.result;
    expect(sub).toMatchObject({ status: RunStatus.values.Done, flaky: true, attempts: 2 });
    expect(await incidentsOf(site.body.data.id)).toEqual([]);
  });

  it('records a subtask end once however often it is reported, and a pass opens nothing', async () => {
    const site = await failingSite();
    const end = (id: number, status: number) => ({
      id,
      operation_id: 987_654_321,
      site_id: site.id,
      process: 3 as const,
      mode: 1 as const,
      status,
      msg: status === RunStatus.values.Failed ? 'Delete failed' : 'ok',
      end_at: Date.now(),
    });
    const base = 9_000_000_000 + (Date.now() % 1_000_000) * 10;
    await modules.service.recordIncidentResult(end(base, RunStatus.values.Done));
    expect(await incidentsOf(site.id)).toEqual([]);
    await modules.service.recordIncidentResult(end(base + 1, RunStatus.values.Failed));
    await modules.service.recordIncidentResult(end(base + 1, RunStatus.values.Failed));
    await Promise.all([
      modules.service.recordIncidentResult(end(base + 2, RunStatus.values.Failed)),
      modules.service.recordIncidentResult(end(base + 2, RunStatus.values.Failed)),
    ]);
    expect(await incidentsOf(site.id)).toEqual([expect.objectContaining({ failures: 2, process: 3, status: 1 })]);
    await modules.service.recordIncidentResult(end(base + 3, RunStatus.values.Done));
    await modules.service.recordIncidentResult(end(base + 3, RunStatus.values.Done));
    expect(await incidentsOf(site.id)).toEqual([expect.objectContaining({ failures: 2, status: 4 })]);
  });
});

describe('the buttons of an incident message', () => {
  let operator: Awaited<ReturnType<typeof linkedUser>>;
  let viewer: Awaited<ReturnType<typeof linkedUser>>;
  const stranger = 9_990_001;

  beforeAll(async () => {
    operator = await linkedUser('operator', 9_990_101);
    viewer = await linkedUser('viewer', 9_990_102);
  });

  it('refuses a delivery without the webhook secret, or with another, with 401', async () => {
    const update = { update_id: 1, message: { message_id: 1, chat: { id: 1 }, text: '/start X' } };
    for (const headers of [{}, { 'x-telegram-bot-api-secret-token': 'not-the-secret' }] as Record<string, string>[]) {
      const res = await fetch(`${stack.url}/webhook/telegram`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(update),
      });
      expect(res.status).toBe(401);
    }
  });

  it('answers an unlinked user and a viewer "Not allowed" and changes nothing; acknowledges for a linked operator', async () => {
    const { site, message, incident } = await checkedIncident();
    const ack = `i:${incident.id}:ack`;

    for (const tgId of [stranger, viewer.tgId]) {
      const pressed = await press(message, ack, tgId);
      expect(pressed).toMatchObject({ status: 200, answer: { text: 'Not allowed' } });
    }
    expect((await incidentsOf(site.id))[0]).toMatchObject({ status: 1, acknowledged_by: null });
    expect((await messagesAbout(site.name))[0].edits).toBe(message.edits);

    const pressed = await press(message, ack, operator.tgId);
    expect(pressed).toMatchObject({ status: 200, answer: { text: 'Acknowledged' } });
    expect((await incidentsOf(site.id))[0]).toMatchObject({
      status: 2,
      acknowledged_by: { nickname: operator.nickname },
    });
    await until(
      'the acknowledged message',
      () => messagesAbout(site.name),
      (ms) => ms[0].text.includes(`Acknowledged by ${operator.nickname}`),
    );

    // Recorded in the audit log as the linked users (the viewer's refused press too), and in the timeline.
    const audit = (
      (await api('get', `/super/audit?target=${encodeURIComponent(`incident#${incident.id}`)}&page_size=100`)).body.data
        .result as { actor_name: string; action: string; outcome: string; input: string; target: string }[]
    ).filter((a) => a.target === `incident#${incident.id}`);
    expect(audit.map((a) => [a.actor_name, a.action, a.outcome]).sort()).toEqual(
      [
        [operator.username, 'incident.action', 'allowed'],
        [viewer.username, 'incident.action', 'refused'],
      ].sort(),
    );
    expect(audit.find((a) => a.outcome === 'allowed')?.input).toContain('"via":"telegram"');
    const timeline = (await api('get', `/incidents/${incident.id}`)).body.data.timeline as Record<string, unknown>[];
    expect(timeline.at(-1)).toMatchObject({
      kind: 'acknowledged',
      via: 'telegram',
      actor: { nickname: operator.nickname },
    });
  });

  it('starts exactly one check with Re-run, as the linked user, and its failure joins the incident', async () => {
    const { site, message, incident } = await checkedIncident();
    const before = (await api('get', '/operations?page_size=1')).body.data.total_count as number;

    const pressed = await press(message, `i:${incident.id}:rerun`, operator.tgId);
    expect(pressed).toMatchObject({ status: 200, answer: { text: 'Re-run started' } });

    expect((await api('get', '/operations?page_size=1')).body.data.total_count).toBe(before + 1);
    const detail = (await api('get', `/incidents/${incident.id}`)).body.data;
    const rerun = detail.timeline.find((e: { kind: string }) => e.kind === 'rerun');
    expect(rerun).toMatchObject({ via: 'telegram', actor: { nickname: operator.nickname } });
    const op = (await api('get', `/operations/${rerun.operation_id}/tasks`)).body.data.operation;
    expect(op).toMatchObject({ operator: { nickname: operator.nickname }, site: { name: site.name } });
    await waitOperation(rerun.operation_id);
    await until(
      'the re-run joins',
      () => incidentsOf(site.id),
      (is) => is[0]?.failures === 2,
    );
    expect(await incidentsOf(site.id)).toHaveLength(1);
    // Still one operation more once the re-run is over: the press started nothing else later.
    expect((await api('get', '/operations?page_size=1')).body.data.total_count).toBe(before + 1);
  });

  it('starts a one-hour maintenance window of the site with Start maintenance 1 h', async () => {
    const { site, message, incident } = await checkedIncident();
    const pressed = await press(message, `i:${incident.id}:mnt`, operator.tgId);
    expect(pressed).toMatchObject({ status: 200, answer: { text: 'Maintenance started for 1 h' } });
    const windows = (await api('get', `/maintenance?keyword=${encodeURIComponent(site.name)}&keywordField=name`)).body
      .data.result as Record<string, unknown>[];
    expect(windows).toEqual([expect.objectContaining({ sites: [site.id], mode: 'pause', kind: 'once', active: true })]);
    await api('delete', `/maintenance/${windows[0].id}`);
  });
});

describe('a silent maintenance window', () => {
  it('lets the checks run and sends nothing to Telegram', async () => {
    const site = await failingSite();
    const window = await api('post', '/maintenance', {
      name: uniqueName('Quiet '),
      sites: [site.id],
      mode: 'silent',
      kind: 'once',
      start_at: Date.now() - 60_000,
      end_at: Date.now() + 3_600_000,
    });
    expect(window.status, JSON.stringify(window.body)).toBe(200);
    // The checker's process keeps the windows up to 5 s.
    await new Promise((r) => setTimeout(r, 5_500));
    expect(await checkLogin(site.id)).toBe(RunStatus.values.Failed);
    await until(
      'the incident',
      () => incidentsOf(site.id),
      (is) => is.length === 1,
    );
    // The sync had its turn: a later, unmuted incident's message arrives after it, and this site has none.
    const other = await failingSite();
    await checkLogin(other.id);
    await until(
      'the other incident message',
      () => messagesAbout(other.name),
      (ms) => ms.length === 1,
    );
    expect(await messagesAbout(site.name)).toEqual([]);
    await api('delete', `/maintenance/${window.body.data.id}`);
  });
});

describe('reminders', () => {
  it('re-announce an open incident at the period as a reply, and stop once it is acknowledged', async () => {
    const { site, t0, incident } = await recordedFailure(9_100_000_000, 987_654_322);
    const [message] = await until(
      'the incident message',
      () => messagesAbout(site.name),
      (ms) => ms.length === 1,
    );
    const min = 60_000;
    const remindedAt = async (at: number) =>
      (await modules.telegram.remindIncidents(at)).reminded.includes(incident.id as number);

    // The default period: 30 minutes (alerts.reminder_minutes).
    expect(await remindedAt(t0 + 29 * min)).toBe(false);
    expect(await remindedAt(t0 + 30 * min)).toBe(true);
    expect(await remindedAt(t0 + 31 * min)).toBe(false);
    expect(await remindedAt(t0 + 59 * min)).toBe(false);
    expect(await remindedAt(t0 + 60 * min)).toBe(true);
    const replies = await until(
      'two reminders',
      () => messagesAbout(site.name),
      (ms) => ms.filter((m) => m.text.includes('Still failing')).length === 2,
    );
    expect(
      replies
        .filter((m) => m.text.includes('Still failing'))
        .every((m) => m.reply_to_message_id === message.message_id),
    ).toBe(true);

    expect((await api('post', `/incidents/${incident.id}/action`, { action: 'acknowledge' })).status).toBe(200);
    expect(await remindedAt(t0 + 90 * min)).toBe(false);
    expect(await remindedAt(t0 + 600 * min)).toBe(false);
    const timeline = (await api('get', `/incidents/${incident.id}`)).body.data.timeline as { kind: string }[];
    expect(timeline.map((e) => e.kind).sort()).toEqual(['acknowledged', 'failure', 'reminder', 'reminder']);
  });

  it('end a snooze when it runs out, and then remind again', async () => {
    const { site, t0, incident } = await recordedFailure(9_200_000_000, 987_654_323);
    const snoozed = await modules.service.actOnIncident(
      incident.id as number,
      { action: 'snooze', minutes: 60 },
      { id: 1, nickname: 'admin' },
      'console',
      { startCheck: modules.start.startCheck },
      t0,
    );
    expect(snoozed.incident).toMatchObject({ status: 3, snoozed_until: t0 + 60 * 60_000 });
    const min = 60_000;
    const tick = (at: number) => modules.telegram.remindIncidents(at);
    expect((await tick(t0 + 45 * min)).reminded).not.toContain(incident.id);
    expect((await tick(t0 + 61 * min)).unsnoozed).toContain(incident.id);
    expect((await incidentsOf(site.id))[0]).toMatchObject({ status: 1, snoozed_until: null });
    expect((await tick(t0 + 90 * min)).reminded).not.toContain(incident.id);
    expect((await tick(t0 + 91 * min)).reminded).toContain(incident.id);
  });

  it('are off with alerts.reminder_minutes 0, and come back with a period', async () => {
    const { t0, incident } = await recordedFailure(9_300_000_000, 987_654_324);
    const min = 60_000;
    const tick = (at: number) => modules.telegram.remindIncidents(at);
    const document = (await api('get', '/super/system-config')).body.data.document;
    const save = async (reminder_minutes: number) => {
      const saved = await api('post', '/super/system-config', {
        ...document,
        alerts: { ...document.alerts, reminder_minutes },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      // This process reads the saved config at once, not after its cache's 5 s.
      modules.config.invalidateSystemConfig();
    };
    await save(0);
    try {
      expect((await tick(t0 + 30 * min)).reminded).not.toContain(incident.id);
      expect((await tick(t0 + 600 * min)).reminded).not.toContain(incident.id);
    } finally {
      await save(document.alerts.reminder_minutes);
    }
    await save(10);
    try {
      expect((await tick(t0 + 9 * min)).reminded).not.toContain(incident.id);
      expect((await tick(t0 + 10 * min)).reminded).toContain(incident.id);
    } finally {
      await save(document.alerts.reminder_minutes);
    }
  });
});
