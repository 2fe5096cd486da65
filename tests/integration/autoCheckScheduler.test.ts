import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { nextRuns } from '../../shared/autoCheckSchedule.js';
import { kit, uniqueName } from '../helpers/authKit.js';

// Rule slots with a controlled clock (issue 14, item 2). The local rule timer and the auto-check
// handler's own code run in this test process against the stack's engines, on a simulated week
// in the future; checks go to a queue of the test's own, so no browser runs. Rules are written
// through the API, as an operator would.

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
let token: string;
const get = (path: string) => client.get(`/api/v1${path}`, { token });
const post = (path: string, body?: unknown) => client.post(`/api/v1${path}`, { token, body });
const put = (path: string, body: unknown) => client.put(`/api/v1${path}`, { token, body });

let sqs: SQSClient;
let run: typeof import('../../functions/autoCheck/runRuleSlot.js');
let timers: typeof import('../../scripts/local/ruleTimer.js');
let plans: typeof import('../../functions/autoCheck/scheduler/localRuleScheduler.js');
let store: typeof import('../../functions/autoCheck/store.js');
let config: typeof import('../../functions/systemConfig/getSystemConfig.js');

const MIN = 60_000;
const DAY = 86_400_000;
let siteId: number;
let originalZone: string;

async function zone(): Promise<string> {
  config.invalidateSystemConfig();
  return (await config.getSystemConfig()).time_zone;
}

async function setZone(time_zone: string) {
  const state = await get('/super/system-config');
  const res = await post('/super/system-config', { ...state.body.data.document, time_zone });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Monday 00:00 of a week that starts more than a day from now, in the zone in force. */
async function futureMonday(): Promise<number> {
  return nextRuns([{ day: 1, times: ['00:00'] }], await zone(), Date.now() + DAY, 1)[0].getTime();
}

async function newRule(times: { day: number; times: string[] }[]) {
  const res = await post('/auto-check/rules', {
    name: uniqueName('Timed '),
    sites: [siteId],
    points: [{ point: 1, modes: [1] }],
    times,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: number };
}

interface Fired {
  at: number;
  ruleId: number;
  weekStamp: number;
  status: string;
}

/**
 * A local rule timer on a clock the test moves, over the given rules only (other tests' rules
 * share the table). `catchUpMs: 0` unless the test is about the catch-up after a restart.
 */
async function simulatedTimer(ruleIds: number[], start: number, catchUpMs = 0) {
  let clock = start;
  const fired: Fired[] = [];
  const timer = timers.startRuleTimer({
    plan: new plans.LocalRuleScheduler(),
    autoStart: false,
    now: () => clock,
    catchUpMs,
    reloadEveryMs: DAY,
    load: async () => ({ rules: await store.ruleStore().getRules(ruleIds), zone: await zone() }),
    handler: async (event) => {
      const outcome = await run.runRuleSlot(event, clock);
      fired.push({
        at: event.slotAt ?? clock,
        ruleId: event.ruleId,
        weekStamp: event.weekStamp,
        status: outcome.status,
      });
    },
    onError: (message, error) => {
      throw new Error(`${message}: ${String(error)}`);
    },
  });
  await timer.started;
  return {
    fired,
    /** Moves the clock minute by minute to `to`, ticking at every minute as the real timer does. */
    async advanceTo(to: number) {
      for (let t = clock + MIN; t <= to; t += MIN) {
        clock = t;
        await timer.tick(t);
      }
    },
    stop: () => timer.stop(),
  };
}

const logsOf = async (ruleId: number) => (await get(`/auto-check/rules/${ruleId}/logs?page_size=0`)).body.data;

beforeAll(async () => {
  token = await k.admin();
  Object.assign(process.env, stack.env);
  sqs = new SQSClient({ region: stack.env.AWS_REGION, endpoint: stack.env.SQS_ENDPOINT });
  const sink = await sqs.send(new CreateQueueCommand({ QueueName: uniqueName('auto-sink-') }));
  process.env.CHECK_QUEUE_URL = sink.QueueUrl;
  (await import('../../functions/lib/aws/clients.js')).resetClients();
  run = await import('../../functions/autoCheck/runRuleSlot.js');
  timers = await import('../../scripts/local/ruleTimer.js');
  plans = await import('../../functions/autoCheck/scheduler/localRuleScheduler.js');
  store = await import('../../functions/autoCheck/store.js');
  config = await import('../../functions/systemConfig/getSystemConfig.js');

  const site = await post('/sites', {
    name: uniqueName('Timed site '),
    url: stack.env.SANDBOX_SITE_URL ?? 'https://timed.test',
    accounts: [{ user: 'agent01', pwd: 'sandbox123' }],
  });
  siteId = site.body.data.id;
  originalZone = await zone();
  await setZone('Asia/Yangon');
});

afterAll(async () => {
  await setZone(originalZone);
  sqs?.destroy();
  await k.destroy();
});

describe('a rule for Monday 09:30', () => {
  it('fires at Monday 09:30 in the configured zone and at no other minute of the week, once', async () => {
    const rule = await newRule([{ day: 1, times: ['09:30'] }]);
    const monday = await futureMonday();
    const sim = await simulatedTimer([rule.id], monday - MIN);
    await sim.advanceTo(monday + 7 * DAY - MIN);
    await sim.stop();

    // Yangon is UTC+06:30 all year: Monday 09:30 there is Monday 03:00 UTC.
    expect(sim.fired).toEqual([{ at: monday + 9.5 * 3600_000, ruleId: rule.id, weekStamp: 34_200, status: 'started' }]);
    expect(new Date(sim.fired[0].at).toISOString()).toMatch(/T03:00:00.000Z$/);

    const logs = await logsOf(rule.id);
    expect(logs.result).toHaveLength(1);
    expect(logs.result[0]).toMatchObject({ week_stamp: 34_200, success: true, missed: false, skipped: [] });
    const op = await get(`/operations/${logs.result[0].operation_id}/tasks`);
    expect(op.body.data.operation).toMatchObject({ name: 3, operator: null, rule_id: rule.id });
  });

  it('starts no second operation for a second delivery of the same slot', async () => {
    const rule = await newRule([{ day: 1, times: ['09:30'] }]);
    const slotAt = (await futureMonday()) + 9.5 * 3600_000;
    const event = { ruleId: rule.id, weekStamp: 34_200, slotAt };
    const [first, second] = await Promise.all([run.runRuleSlot(event, slotAt), run.runRuleSlot(event, slotAt)]);
    const third = await run.runRuleSlot(
      { ruleId: rule.id, weekStamp: 34_200, scheduledTime: new Date(slotAt).toISOString() },
      slotAt + 2000,
    );

    expect([first.status, second.status].sort()).toEqual(['duplicate', 'started']);
    expect(third.status).toBe('duplicate');
    expect((await logsOf(rule.id)).total_count).toBe(1);
  });

  it('moves with an edit: after Tuesday 18:00 replaces it, only Tuesday 18:00 fires', async () => {
    const rule = await newRule([{ day: 1, times: ['09:30'] }]);
    const edit = await put(`/auto-check/rules/${rule.id}`, {
      name: uniqueName('Moved '),
      sites: [siteId],
      points: [{ point: 1, modes: [1] }],
      times: [{ day: 2, times: ['18:00'] }],
    });
    expect(edit.status).toBe(200);
    const monday = await futureMonday();
    const sim = await simulatedTimer([rule.id], monday - MIN);
    await sim.advanceTo(monday + 7 * DAY - MIN);
    await sim.stop();
    expect(sim.fired.map((f) => [f.at - monday, f.weekStamp, f.status])).toEqual([
      [DAY + 18 * 3600_000, 86_400 + 18 * 3600, 'started'],
    ]);
    // A schedule left behind by the edit that still fires does nothing.
    const stale = await run.runRuleSlot({ ruleId: rule.id, weekStamp: 34_200, slotAt: monday + 9.5 * 3600_000 });
    expect(stale).toEqual({ status: 'ignored', reason: 'slot no longer in the rule' });
  });

  it('stops when disabled and when deleted, even when a schedule fires late', async () => {
    const disabled = await newRule([{ day: 1, times: ['09:30'] }]);
    const deleted = await newRule([{ day: 1, times: ['09:30'] }]);
    expect((await put(`/auto-check/rules/${disabled.id}`, { enable: false })).status).toBe(200);
    expect((await put(`/auto-check/rules/${deleted.id}`, { delete: 1 })).status).toBe(200);

    const monday = await futureMonday();
    const sim = await simulatedTimer([disabled.id, deleted.id], monday - MIN);
    await sim.advanceTo(monday + 7 * DAY - MIN);
    await sim.stop();
    expect(sim.fired).toEqual([]);

    const slotAt = monday + 9.5 * 3600_000;
    expect(await run.runRuleSlot({ ruleId: disabled.id, weekStamp: 34_200, slotAt }, slotAt)).toEqual({
      status: 'ignored',
      reason: 'rule disabled',
    });
    expect(await run.runRuleSlot({ ruleId: deleted.id, weekStamp: 34_200, slotAt }, slotAt)).toEqual({
      status: 'ignored',
      reason: 'rule deleted',
    });
    expect((await logsOf(disabled.id)).total_count).toBe(0);
  });
});

describe('after the stack was down', () => {
  it('runs a slot missed by less than 10 minutes once at start, and logs an older one as missed', async () => {
    const recent = await newRule([{ day: 1, times: ['09:30'] }]);
    const old = await newRule([{ day: 1, times: ['08:00'] }]);
    const monday = await futureMonday();

    // The stack comes back at Monday 09:35: 09:30 is 5 minutes late, 08:00 95 minutes.
    const restart = await simulatedTimer([recent.id, old.id], monday + 9.5 * 3600_000 + 5 * MIN, 7 * DAY);
    await restart.stop();
    expect(restart.fired.map((f) => [f.ruleId, f.status])).toEqual([
      [old.id, 'missed'],
      [recent.id, 'started'],
    ]);

    // A second restart a minute later finds both slots taken.
    const again = await simulatedTimer([recent.id, old.id], monday + 9.5 * 3600_000 + 6 * MIN, 7 * DAY);
    await again.stop();
    expect(again.fired.map((f) => f.status)).toEqual(['duplicate', 'duplicate']);

    const [recentLogs, oldLogs] = await Promise.all([logsOf(recent.id), logsOf(old.id)]);
    expect(recentLogs.result).toEqual([expect.objectContaining({ success: true, missed: false })]);
    expect(recentLogs.result[0].operation_id).toEqual(expect.any(Number));
    expect(oldLogs.result).toEqual([
      expect.objectContaining({ week_stamp: 8 * 3600, success: false, missed: true, operation_id: null }),
    ]);
  });

  it('runs a slot missed by 9 minutes but not one missed by 10', async () => {
    const monday = await futureMonday();
    const slotAt = monday + 9.5 * 3600_000;
    const nine = await newRule([{ day: 1, times: ['09:30'] }]);
    const ten = await newRule([{ day: 1, times: ['09:30'] }]);
    expect((await run.runRuleSlot({ ruleId: nine.id, weekStamp: 34_200, slotAt }, slotAt + 9 * MIN)).status).toBe(
      'started',
    );
    expect((await run.runRuleSlot({ ruleId: ten.id, weekStamp: 34_200, slotAt }, slotAt + 10 * MIN)).status).toBe(
      'missed',
    );
  });
});

describe('a time zone change', () => {
  it('moves the firing instant to the wall clock of the new zone', async () => {
    const rule = await newRule([{ day: 1, times: ['09:30'] }]);
    const before = (await get(`/auto-check/rules/${rule.id}`)).body.data.next_run;
    await setZone('Europe/Berlin');
    try {
      const after = (await get(`/auto-check/rules/${rule.id}`)).body.data.next_run;
      expect(after).not.toBe(before);

      const monday = await futureMonday();
      const sim = await simulatedTimer([rule.id], monday - MIN);
      await sim.advanceTo(monday + 7 * DAY - MIN);
      await sim.stop();
      expect(sim.fired).toHaveLength(1);
      const at = new Date(sim.fired[0].at);
      const berlin = new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Berlin',
        weekday: 'short',
        hour: '2-digit',
        minute: '2-digit',
      }).format(at);
      expect(berlin).toBe('Mon 09:30');

      // A schedule still on the old zone fires at Yangon's 09:30, which is not 09:30 in Berlin: nothing starts.
      const yangonSlot = nextRuns([{ day: 1, times: ['09:30'] }], 'Asia/Yangon', monday - 2 * DAY, 1)[0].getTime();
      const stale = await run.runRuleSlot({ ruleId: rule.id, weekStamp: 34_200, slotAt: yangonSlot }, yangonSlot);
      expect(stale.status).toBe('ignored');
    } finally {
      await setZone('Asia/Yangon');
    }
  });
});

describe('a maintenance window', () => {
  it('makes a rule slot skip the sites it pauses and log them as skipped for maintenance; a silent one skips nothing', async () => {
    const other = await post('/sites', {
      name: uniqueName('Timed other '),
      url: stack.env.SANDBOX_SITE_URL ?? 'https://timed.test',
      accounts: [{ user: 'agent01', pwd: 'sandbox123' }],
    });
    const otherId = other.body.data.id as number;
    const both = await post('/auto-check/rules', {
      name: uniqueName('Paused '),
      sites: [siteId, otherId],
      points: [{ point: 1, modes: [1] }],
      times: [{ day: 1, times: ['09:30'] }],
    });
    const pausedOnly = await post('/auto-check/rules', {
      name: uniqueName('All paused '),
      sites: [siteId],
      points: [{ point: 1, modes: [1] }],
      times: [{ day: 1, times: ['09:30'] }],
    });
    // Mondays 09:00-10:00 in the configured zone (Yangon): the first site paused, the other silent.
    const pause = await post('/maintenance', {
      name: uniqueName('Deploy '),
      sites: [siteId],
      mode: 'pause',
      kind: 'weekly',
      days: [1],
      start_time: '09:00',
      end_time: '10:00',
    });
    expect(pause.status, JSON.stringify(pause.body)).toBe(200);
    const silent = await post('/maintenance', {
      name: uniqueName('Quiet '),
      sites: [otherId],
      mode: 'silent',
      kind: 'weekly',
      days: [1],
      start_time: '09:00',
      end_time: '10:00',
    });
    expect(silent.status, JSON.stringify(silent.body)).toBe(200);

    // The windows were saved by the stack: this process reads them afresh, not its copy of 5 s ago.
    (await import('../../functions/maintenance/service.js')).invalidateMaintenanceWindows();
    const monday = await futureMonday();
    const sim = await simulatedTimer([both.body.data.id, pausedOnly.body.data.id], monday - MIN);
    await sim.advanceTo(monday + 10 * 3600_000);
    await sim.stop();
    expect(sim.fired.map((f) => [f.ruleId, f.status]).sort()).toEqual(
      [
        [both.body.data.id, 'started'],
        [pausedOnly.body.data.id, 'nothing_to_check'],
      ].sort(),
    );

    const window = { id: pause.body.data.id, name: pause.body.data.name };
    const [started] = (await logsOf(both.body.data.id)).result;
    expect(started).toMatchObject({
      success: true,
      skipped: [{ site_id: siteId, reason: 'maintenance', window }],
    });
    expect(started.remark).toContain(`(maintenance: ${window.name})`);
    const tasks = (await get(`/operations/${started.operation_id}/tasks`)).body.data.tasks as {
      site: { name: string };
    }[];
    expect(tasks.map((t) => t.site.name)).toEqual([other.body.data.name]);
    const [nothing] = (await logsOf(pausedOnly.body.data.id)).result;
    expect(nothing).toMatchObject({
      success: false,
      operation_id: null,
      skipped: [{ site_id: siteId, reason: 'maintenance', window }],
    });

    // Off again, so the later tests of this file check the site as before.
    expect((await put(`/maintenance/${pause.body.data.id}`, { enabled: false })).status).toBe(200);
    expect((await client.delete(`/api/v1/maintenance/${silent.body.data.id}`, { token })).status).toBe(200);
  });
});
