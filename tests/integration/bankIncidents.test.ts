// Bank incidents on the stack (issue 45 item 1, and the rules of item 2 as the poll fires them),
// against the sandbox KBZ portal and the sandbox Bot API: a Locked account opens one incident in the
// bank chat with its buttons (Acknowledge, Poll now, Snooze 1 h / 4 h, Disable account, Open), a
// viewer's press changes nothing, and the next healthy poll (Poll now, pressed by a linked operator)
// resolves it with an edit and a reply; an alert rule on the balance fires, resolves when the balance
// rises, and fires again (a second incident) when it falls.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { login } from '../helpers/api.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { refreshedAccount } from '../helpers/refreshedAccount.js';
import { until } from '../helpers/until.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
const tgUrl = stack.env.TELEGRAM_API_URL;
const bankUrl = stack.env.SANDBOX_BANK_URL as string;
const TOKEN = `7001002045:AAH-${uniqueName('bankinc').replace(/[^A-Za-z0-9_-]/g, '')}xxxxxxxxxxxx`;
const CHAT = `-100${(Date.now() + 45) % 1_000_000_000}`;
let admin: string;

interface ChatMessage {
  message_id: number;
  text: string;
  edits: number;
  silent: boolean;
  reply_to_message_id: number | null;
  reply_markup: { inline_keyboard: { text: string; callback_data?: string; url?: string }[][] } | null;
}
interface IncidentRow {
  id: number;
  kind: string;
  status: number;
  site_id: number | null;
  process: number | null;
  mode: number | null;
  bank_account_id: number | null;
  bank_name: number | null;
  account_user: string | null;
  rule_id: number | null;
  severity: string;
  failures: number;
  last_message: string;
}

const api = (method: 'get' | 'put' | 'post' | 'delete', path: string, body?: unknown, token = admin) =>
  client[method](`/api/v1${path}`, { token, ...(body !== undefined ? { body } : {}) });
async function tg(path: string, body?: unknown) {
  const res = await fetch(`${tgUrl}/sandbox/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}
async function bank(action: string, body: Record<string, unknown>) {
  const res = await fetch(`${bankUrl}/__sandbox/bank/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return res.json();
}
/** The incident messages of an account (its statements' notifications go to the same chat). */
const incidentMessages = async (user: string): Promise<ChatMessage[]> =>
  ((await tg(`chats/${encodeURIComponent(CHAT)}/messages`)).messages as ChatMessage[]).filter(
    (m) => m.text.includes(user) && /incident #|Resolved:/.test(m.text),
  );
const incidentsOf = async (accountId: number, extra = ''): Promise<IncidentRow[]> => {
  const res = await api('get', `/incidents?bank_account_id=%3D-${accountId}&page_size=100${extra}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.result;
};
const press = (message: ChatMessage, data: string, tgId: number) =>
  tg('updates/press', { chat_id: CHAT, message_id: message.message_id, data, from: { id: tgId } });
const refresh = (id: number) => api('post', `/bank/bank-account/${id}/refresh`, {});

async function linkedUser(role: 'operator' | 'viewer', tgId: number) {
  const username = uniqueName(role);
  await k.createUser(username, `${role}-pass-1`, role);
  const token = await login(stack.url, username, `${role}-pass-1`);
  const code = await api('post', '/telegram/link-code', {}, token);
  expect(code.status, JSON.stringify(code.body)).toBe(200);
  const delivered = await tg('updates/message', {
    from: { id: tgId, username: `tg_${username}` },
    text: `/start ${code.body.data.token}`,
  });
  expect(delivered.status).toBe(200);
  return { username, tgId, nickname: `Nick ${username}` };
}

/** A KBZ account read once (its history stored), enabled. */
async function polledAccount(prefix: string) {
  const user = uniqueName(prefix)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  const created = await api('post', '/bank/bank-accounts', { bank_name: 1, user, pwd: 'sandbox123' });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.data.id as number;
  const init = await refreshedAccount((path) => api('post', path, {}), id);
  expect(init.body.data, JSON.stringify(init.body)).toMatchObject({ polled: true, status: 1, error: null });
  return { id, user };
}

let operator: Awaited<ReturnType<typeof linkedUser>>;
let viewer: Awaited<ReturnType<typeof linkedUser>>;

beforeAll(async () => {
  expect(tgUrl, 'the stack serves the sandbox Bot API').toBeTruthy();
  admin = await k.admin();
  const saved = await api('put', '/super/notification/tg', {
    bot_token: TOKEN,
    check_chat_id: '',
    bank_chat_id: CHAT,
    check_enabled: false,
    bank_enabled: true,
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  operator = await linkedUser('operator', 9_990_451);
  viewer = await linkedUser('viewer', 9_990_452);
});

afterAll(async () => {
  await api('put', '/super/notification/tg', {
    check_chat_id: '',
    bank_chat_id: CHAT,
    check_enabled: false,
    bank_enabled: false,
  });
  k.destroy();
});

describe('a bank incident', () => {
  it('opens once for a Locked account, in the bank chat with its buttons; a healthy poll resolves it', async () => {
    const { id, user } = await polledAccount('kbzinc');
    await bank('lock', { bank: 'kbz', user, locked: true });
    const locked = await refresh(id);
    expect(locked.body.data, JSON.stringify(locked.body)).toMatchObject({ polled: true, status: 3 });
    // A second failed poll (as the operator's or a scheduled one) joins nothing new: the status did not change.
    expect((await refresh(id)).body.data).toMatchObject({ status: 3 });

    const [incident] = await until(
      'the bank incident',
      () => incidentsOf(id),
      (rows) => rows.length > 0,
    );
    expect(await incidentsOf(id)).toHaveLength(1);
    expect(incident).toMatchObject({
      kind: 'bank',
      status: 1,
      site_id: null,
      process: null,
      mode: null,
      bank_account_id: id,
      bank_name: 1,
      account_user: user,
      rule_id: null,
      severity: 'warning',
      failures: 1,
    });
    expect(incident.last_message).toMatch(/^Locked/);
    // The kind filter finds it among bank incidents and not among checks'.
    expect((await incidentsOf(id, '&kind=bank')).map((i) => i.id)).toEqual([incident.id]);
    expect(await incidentsOf(id, '&kind=check')).toEqual([]);

    // Sent after the group wait (alerts.group_wait_seconds: 30 s by default, 0 on the shared stack,
    // tests/helpers/alertsConfig.ts), in which its bank's other accounts may join it under one parent.
    const [message] = await until(
      'the incident message in the bank chat',
      () => incidentMessages(user),
      (ms) => ms.length === 1,
      { ms: 90_000, everyMs: 500 },
    );
    expect(message.text).toContain(`Failing: incident #${incident.id}`);
    expect(message.text).toContain(`KBZ · ${user}`);
    const buttons = message.reply_markup?.inline_keyboard.flat() ?? [];
    expect(buttons.map((b) => b.text)).toEqual([
      'Acknowledge',
      'Poll now',
      'Snooze 1 h',
      'Snooze 4 h',
      'Disable account',
      'Open',
    ]);
    expect(buttons.find((b) => b.text === 'Poll now')?.callback_data).toBe(`i:${incident.id}:poll`);

    // A viewer may not disable the account from the chat: the link decides the role.
    const refused = await press(message, `i:${incident.id}:dis`, viewer.tgId);
    expect(refused).toMatchObject({ status: 200, answer: { text: 'Not allowed' } });
    expect((await api('get', `/bank/bank-accounts/${id}`)).body.data.status).toBe(3);

    // Unlocked at the bank, Poll now by a linked operator runs the healthy poll that resolves it.
    await bank('lock', { bank: 'kbz', user, locked: false });
    const polled = await press(message, `i:${incident.id}:poll`, operator.tgId);
    expect(polled).toMatchObject({ status: 200, answer: { text: 'Polled' } });
    expect((await api('get', `/bank/bank-accounts/${id}`)).body.data.status).toBe(1);
    const [resolved] = await incidentsOf(id);
    expect(resolved).toMatchObject({ id: incident.id, status: 4 });
    const detail = (await api('get', `/incidents/${incident.id}`)).body.data;
    expect(detail.timeline.map((e: { kind: string }) => e.kind)).toEqual(['failure', 'polled', 'resolved']);
    expect(detail.timeline[1]).toMatchObject({ via: 'telegram', actor: { nickname: operator.nickname } });

    const after = await until(
      'the resolution in the chat',
      () => incidentMessages(user),
      (ms) => ms.length === 2 && ms[0].text.includes('Resolved: incident'),
    );
    expect(after[0].reply_markup?.inline_keyboard.flat().map((b) => b.text)).toEqual(['Open']);
    expect(after[1]).toMatchObject({ reply_to_message_id: message.message_id });
    expect(after[1].text).toContain('the account polls well again');
    // Audited as the linked users: the viewer's refusal and the operator's poll.
    const audit = (
      (await api('get', `/super/audit?target=${encodeURIComponent(`incident#${incident.id}`)}&page_size=100`)).body.data
        .result as { actor_name: string; outcome: string; input: string }[]
    ).map((a) => [a.actor_name, a.outcome, JSON.parse(a.input).action]);
    expect(audit.sort()).toEqual(
      [
        [operator.username, 'allowed', 'poll'],
        [viewer.username, 'refused', 'disable'],
      ].sort(),
    );
  });

  it('refuses re-run and maintenance on a bank incident with 409, and disables its account for an operator', async () => {
    const { id, user } = await polledAccount('disableinc');
    await bank('lock', { bank: 'kbz', user, locked: true });
    expect((await refresh(id)).body.data).toMatchObject({ status: 3 });
    const [incident] = await until(
      'the incident',
      () => incidentsOf(id),
      (rows) => rows.length === 1,
    );
    for (const action of ['rerun', 'maintenance'])
      expect((await api('post', `/incidents/${incident.id}/action`, { action })).status).toBe(409);
    const disabled = await api('post', `/incidents/${incident.id}/action`, { action: 'disable' });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    expect((await api('get', `/bank/bank-accounts/${id}`)).body.data.status).toBe(99);
    // Disabled, the account is not watched: its incident resolves with it.
    expect((await incidentsOf(id))[0]).toMatchObject({ status: 4 });
    await bank('lock', { bank: 'kbz', user, locked: false });
  });
});

describe("half of KBZ's accounts failing", () => {
  it('puts their incidents under one bank parent, which resolves with its last child', async () => {
    // The shared stack holds other files' KBZ accounts: as many Locked ones as the enabled others
    // make half of the bank (and at least 2). The sandbox locks a user whose name starts with "locked".
    const count = async (filter: string) =>
      (await api('get', `/bank/bank-accounts?bank_name=1${filter}&page_size=1`)).body.data.total_count as number;
    const others = (await count('')) - (await count('&status=99'));
    const ids: number[] = [];
    for (let n = 0; n < Math.max(2, others); n++) {
      const user = uniqueName('lockedkbz')
        .toLowerCase()
        .replace(/[^a-z0-9]/g, '');
      const created = await api('post', '/bank/bank-accounts', { bank_name: 1, user, pwd: 'sandbox123' });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      ids.push(created.body.data.id);
      // Polled now (its scheduled poll may be the one that finds it Locked first: either way Locked).
      expect((await refresh(created.body.data.id)).status).toBe(200);
    }
    const parentsOpen = async () =>
      (
        (await api('get', '/incidents?kind=bank&status=1&page_size=100')).body.data.result as (IncidentRow & {
          cause: string | null;
          children: number;
          parent_id: number | null;
        })[]
      ).filter((i) => i.cause === 'same_bank' && i.bank_name === 1);
    const [parent] = await until('the KBZ parent', parentsOpen, (rows) => rows.length === 1);
    const children = await Promise.all(
      ids.map(
        async (id) =>
          (await incidentsOf(id)).find((i) => i.rule_id === null) as IncidentRow & { parent_id: number | null },
      ),
    );
    expect(children.map((c) => c.parent_id)).toEqual(ids.map(() => parent.id));
    expect(parent.children).toBeGreaterThanOrEqual(ids.length);

    // Disabled, the accounts' incidents resolve, and the parent with its last child.
    for (const id of ids) expect((await api('put', `/bank/bank-account/${id}`, { status: 99 })).status).toBe(200);
    await until(
      'the parent resolved',
      () => api('get', `/incidents/${parent.id}`),
      (res) => res.body.data.status === 4,
    );
  });
});

describe('an alert rule on the balance', () => {
  it('fires, resolves when the balance rises, and fires again when it falls', async () => {
    const { id, user } = await polledAccount('ruleinc');
    const summary = (await (
      await fetch(`${bankUrl}/__sandbox/bank/account?bank=kbz&user=${encodeURIComponent(user)}`)
    ).json()) as { subs: { no: string; usable: boolean; balance: number }[] };
    const total = summary.subs.filter((s) => s.usable).reduce((sum, s) => sum + s.balance, 0);
    const no = summary.subs.find((s) => s.usable)?.no as string;
    const floor = Math.round(total) + 500;
    const rule = await api('post', '/bank/alert-rules', {
      name: uniqueName('Floor '),
      expression: `balance < ${floor}`,
      scope: { kind: 'accounts', account_ids: [id] },
      severity: 'critical',
      enabled: true,
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    const ruleId = rule.body.data.id as number;
    try {
      const ruleIncidents = async () => (await incidentsOf(id)).filter((i) => i.rule_id === ruleId);
      expect((await refresh(id)).body.data).toMatchObject({ polled: true, status: 1 });
      const [first] = await until('the rule fired', ruleIncidents, (rows) => rows.length === 1);
      expect(first).toMatchObject({ kind: 'bank', status: 1, severity: 'critical', bank_account_id: id });
      expect(first.last_message).toContain(`balance < ${floor}`);
      await until(
        'its message',
        () => incidentMessages(user),
        (ms) => ms.some((m) => m.text.includes(`#${first.id}`)),
      );

      // The balance rises above the floor: the next poll resolves it.
      await bank('transaction', { bank: 'kbz', user, no, amount: 1000, inflow: true });
      expect((await refresh(id)).body.data).toMatchObject({ polled: true });
      await until('the rule resolved', ruleIncidents, (rows) => rows.length === 1 && rows[0].status === 4);

      // And falls again: a new incident of the same (rule, account).
      await bank('transaction', { bank: 'kbz', user, no, amount: 1000, inflow: false });
      expect((await refresh(id)).body.data).toMatchObject({ polled: true });
      const again = await until('the rule fired again', ruleIncidents, (rows) => rows.length === 2);
      expect(again.map((i) => i.status).sort()).toEqual([1, 4]);
      expect(again.find((i) => i.status === 1)?.id).not.toBe(first.id);
    } finally {
      await api('delete', `/bank/alert-rules/${ruleId}`);
    }
  });
});
