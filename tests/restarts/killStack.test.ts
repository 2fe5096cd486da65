import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NotificationCategory, NotifyStatus, RunStatus, TaskStatus } from '../../shared/enums.js';
import { api, login } from '../helpers/api.js';
import { uniqueName } from '../helpers/authKit.js';
import { type Row, tableAfterCrash } from '../helpers/crashedTable.js';
import { quietIncidentGrouping } from '../helpers/alertsConfig.js';
import { killTree, type RunningStack, startStackProcess, stopStackProcess } from '../helpers/stackProcess.js';
import { until } from '../helpers/until.js';

// Issue 25, item 4: the local stack's whole process tree is SIGKILLed in the middle of a batch
// check, then started again on the same DATA_DIR; the check must end as if nothing had happened.
// The kill is aimed, not hoped for: the stack runs with the fault hook armed (lib/db/faults.ts) to
// freeze its process right after the first subtask's end is written (the first write of the
// subtask_end sequence, the subtask's own transition: the ids come from the process's blocks,
// counted in no sequence) and before anything that end sets in motion: its counters, and the key
// it hands to the follow-up applier (whose writes, in another process, no freeze would stop). The test sees the freeze, kills the tree, reads the table as the crash left it,
// and restarts.

const PASSWORD = 'kill-test-pass-1';
const TOKEN = `7001002003:AAH-${uniqueName('killtoken').replace(/[^A-Za-z0-9_-]/g, '')}xxxxxxxxxxxx`;
const CHAT = `-100${Date.now() % 1_000_000_000}`;
const dataDir = await mkdtemp(join(tmpdir(), 'patrol-kill-'));
const marker = join(dataDir, 'crashed.json');
let stack: RunningStack | undefined;

afterAll(async () => {
  if (stack) await stopStackProcess(stack.child);
  if (!process.env.KEEP_TEST_DATA) await rm(dataDir, { recursive: true, force: true });
});

describe('a SIGKILL of the whole stack during a batch check, and a restart on the same data', () => {
  it('ends the check as if nothing happened: every subtask final, counters equal, nothing open, each record once', async () => {
    stack = await startStackProcess({
      dataDir,
      adminPassword: PASSWORD,
      env: { PATROL_CRASH_AT: 'subtask_end:1', PATROL_CRASH_MARKER: marker },
    });
    let client = api(stack.url);
    let token = await login(stack.url, 'admin', PASSWORD);
    // Each incident's own message at once, as the check below expects (no group wait, issue 45).
    await quietIncidentGrouping(stack.url, PASSWORD);
    const call = (method: 'get' | 'post' | 'put', path: string, body?: unknown) =>
      client[method](`/api/v1${path}`, { token, ...(body !== undefined ? { body } : {}) });

    // The operation's summary goes to a chat of the sandbox Bot API.
    const tg = await call('put', '/super/notification/tg', {
      bot_token: TOKEN,
      check_chat_id: CHAT,
      bank_chat_id: '',
      check_enabled: true,
      bank_enabled: false,
      per_subtask: false,
    });
    expect(tg.status, JSON.stringify(tg.body)).toBe(200);
    const sites: number[] = [];
    for (const name of ['Kill A ', 'Kill B ']) {
      const site = await call('post', '/sites', {
        name: uniqueName(name),
        url: stack.env.SANDBOX_SITE_URL,
        accounts: [{ user: 'agent01', pwd: 'sandbox123' }],
      });
      expect(site.status, JSON.stringify(site.body)).toBe(200);
      sites.push(site.body.data.id);
    }
    const started = await call('post', '/sites/check', {
      sites,
      points: [
        { point: 1, modes: [1] },
        { point: 8, modes: [1, 3] },
      ],
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const opId = started.body.data.id as number;

    // The checker freezes itself right after the first subtask's end is written; then the kill.
    await until('the aimed crash', async () => existsSync(marker), Boolean, { ms: 120_000, everyMs: 50 });
    const killedAt = Date.now();
    const killed = await killTree(stack.child);
    stack = undefined;
    expect(killed).toBeGreaterThanOrEqual(3); // the server, the DynamoDB engine, the checker (and Chromium)
    expect(JSON.parse(readFileSync(marker, 'utf8'))).toMatchObject({
      sequence: 'subtask_end',
      lastWrite: 'UpdateItemCommand',
    });

    // What the kill left: a subtask saved final with its follow-ups still on it, none of them done: its
    // task has not counted it, and it has no end record and no notification. (Another subtask's end,
    // sent to the engine as the checker froze, may have landed too: a crash does not wait for requests
    // in flight.)
    const rows = await tableAfterCrash(dataDir);
    const ofOp = (type: string) => rows.filter((r) => String(r.pk).startsWith(`${type}#`) && r.operation_id === opId);
    const crossed = ofOp('subtask').filter(
      (s) =>
        (s.status === RunStatus.values.Done || s.status === RunStatus.values.Failed) &&
        Object.keys(s).some((k) => k.startsWith('_ob_e_')),
    );
    expect(crossed.length, 'subtasks whose end was written and nothing after it').toBeGreaterThanOrEqual(1);
    for (const ended of crossed) {
      const itsTask = ofOp('task').find((t) => t.id === ended.task_id) as Row;
      expect([...((itsTask._ob_causes as Set<string>) ?? [])]).not.toContain(`subtask_end:${ended.id}`);
      expect(ofOp('engine_event').filter((e) => e.action === 'subtask_end' && e.subtask_id === ended.id)).toEqual([]);
      expect(rows.filter((r) => r.caption === `Subtask ${ended.id} of operation ${opId}`)).toEqual([]);
    }

    // The restart: the same DATA_DIR, the hook not armed.
    stack = await startStackProcess({ dataDir, adminPassword: PASSWORD });
    client = api(stack.url);
    token = await login(stack.url, 'admin', PASSWORD);
    const detail = await until(
      `operation ${opId} to end after the restart`,
      async () => (await call('get', `/operations/${opId}/tasks`)).body.data,
      (d) => d.operation.status === RunStatus.values.Done || d.operation.status === RunStatus.values.Failed,
      { ms: 150_000, everyMs: 500 },
    );

    const subtasks = (await call('get', `/check/subtasks?operation_id==-${opId}&page_size=0`)).body.data
      .result as Row[];
    expect(subtasks).toHaveLength(6);
    expect(subtasks.filter((s) => s.status !== RunStatus.values.Done && s.status !== RunStatus.values.Failed)).toEqual(
      [],
    );
    for (const task of detail.tasks as Row[]) {
      const mine = subtasks.filter((s) => s.task_id === task.id);
      expect(task.status).toBe(TaskStatus.values.Done);
      expect({
        total: task.task_total,
        done: task.task_done,
        failed: task.task_failed,
        running: task.task_running,
      }).toEqual({
        total: mine.length,
        done: mine.filter((s) => s.status === RunStatus.values.Done).length,
        failed: mine.filter((s) => s.status === RunStatus.values.Failed).length,
        running: 0,
      });
    }
    const tasks = detail.tasks as Row[];
    expect(detail.operation).toMatchObject({
      task_total: 2,
      task_done: 2,
      task_running: 0,
      task_failed: tasks.filter((t) => t.task_failed > 0).length,
    });

    // Each record and each notification once; the one the kill cut is there too, written after it.
    const records = (await call('get', `/operations/records?operation_id==-${opId}&page_size=0`)).body.data
      .result as Row[];
    const claimed = subtasks.filter((s) => s.start_at !== null);
    for (const s of claimed)
      expect(
        records.filter((r) => r.action === 'subtask_end' && r.subtask_id === s.id),
        `end record of ${s.id}`,
      ).toHaveLength(1);
    for (const t of tasks) expect(records.filter((r) => r.action === 'task_end' && r.task_id === t.id)).toHaveLength(1);
    expect(records.filter((r) => r.action === 'operation_end')).toHaveLength(1);

    const notes = ((await call('get', '/notifications?page_size=0')).body.data.result as Row[]).filter(
      (n) => n.link === `/operations/${opId}`,
    );
    for (const s of claimed)
      expect(
        notes.filter((n) => n.caption === `Subtask ${s.id} of operation ${opId}`),
        `notification of ${s.id}`,
      ).toHaveLength(1);
    for (const t of tasks)
      expect(notes.filter((n) => n.caption === `Task ${t.id} of operation ${opId}`)).toHaveLength(1);
    expect(notes.filter((n) => n.category === NotificationCategory.values.Operation)).toHaveLength(1);
    for (const ended of crossed) {
      const cut = notes.find((n) => n.caption === `Subtask ${ended.id} of operation ${opId}`) as Row;
      expect(ended.end_at).toBeLessThan(killedAt);
      expect(cut.created_at).toBeGreaterThan(killedAt);
    }

    // Failures the checks ran (or the reaper ended) are told by their incidents (docs/incidents.md):
    // each (site, process, mode) that failed has one incident with each failure counted once, and its
    // one message on the chat; the operation's summary then stays off it. With no failure, the summary
    // reached the chat once: settled Success (nothing is sent after that), one message.
    const operationNote = notes.find((n) => n.category === NotificationCategory.values.Operation) as Row;
    const messagesOnChat = async () =>
      (await (await fetch(`${stack!.env.TELEGRAM_API_URL}/sandbox/messages?chat_id=${CHAT}`)).json()).messages as Row[];
    const failedRan = claimed.filter((s) => s.status === RunStatus.values.Failed);
    // An incident names its site by id; a subtask of the API by `site: {id, name}`.
    const keyOf = (r: Row) => `${r.site_id ?? (r.site as Row | null)?.id}:${r.process}:${r.mode}`;
    if (failedRan.length > 0) {
      expect(operationNote.status_tg).toBe(NotifyStatus.values.NoNeed);
      const incidents = ((await call('get', '/incidents?page_size=100')).body.data.result as Row[]).filter((i) =>
        sites.includes(i.site_id as number),
      );
      expect(incidents.map(keyOf).sort()).toEqual([...new Set(failedRan.map(keyOf))].sort());
      for (const incident of incidents)
        expect(incident.failures, `failures of incident ${incident.id}`).toBe(
          failedRan.filter((s) => keyOf(s) === keyOf(incident)).length,
        );
      const messages = await until(
        'each incident message',
        messagesOnChat,
        (ms) => incidents.every((i) => ms.some((m) => String(m.text).includes(`incident #${i.id}`))),
        { ms: 30_000, everyMs: 250 },
      );
      for (const incident of incidents)
        expect(messages.filter((m) => String(m.text).includes(`incident #${incident.id}`))).toHaveLength(1);
      expect(messages.filter((m) => String(m.text).includes(`Operation ${opId}`))).toEqual([]);
      return;
    }
    await until(
      'the summary sent',
      async () => (await call('get', `/notifications/${operationNote.id}`)).body.data.status_tg,
      (status) => status === NotifyStatus.values.Success,
      { ms: 30_000, everyMs: 250 },
    );
    const messages = await messagesOnChat();
    expect(messages.filter((m) => String(m.text).includes(`Operation ${opId}`))).toHaveLength(1);
  }, 420_000);
});
