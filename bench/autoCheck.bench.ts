// Auto-check schedule figures (issue 14): 500 rules with 20 slots each.
// - next-run list: every rule's next run (the rules list's `next_run`) and next five (the overview),
//   against a raw baseline of one croner job per slot asked for its next run;
// - the week calendar over every rule;
// - one minute tick of the local rule timer over every rule;
// - syncing one rule's 20 schedules through the EventBridge Scheduler adapter, on a mocked client
//   answering at once and after a simulated 25 ms per call, against raw sequential SDK calls.
// BENCH_RULES and BENCH_REPS shorten a run.

import { loadavg } from 'node:os';
import {
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ListSchedulesCommand,
  SchedulerClient,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { Cron } from 'croner';
import { LocalRuleScheduler } from '../functions/autoCheck/scheduler/localRuleScheduler.js';
import { eventBridgeRuleScheduler, scheduleName } from '../functions/autoCheck/scheduler/eventBridgeRuleScheduler.js';
import { nextRun, nextRuns, slotCron, slotsOf, weekCalendar } from '../shared/autoCheckSchedule.js';
import type { RuleTimes, WeekdayValue } from '../shared/schemas/autoCheck.js';

const RULES = Number(process.env.BENCH_RULES ?? 500);
const SLOTS = 20;
const REPS = Number(process.env.BENCH_REPS ?? 20);
const ZONE = 'Asia/Yangon';

// Deterministic spread: 4 weekdays x 5 times per rule, times on quarter hours through the day.
let seed = 42;
const rand = (n: number) => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed % n;
};
function ruleTimes(): RuleTimes {
  const days = new Set<number>();
  while (days.size < 4) days.add(1 + rand(7));
  return [...days].sort().map((day) => {
    const times = new Set<string>();
    while (times.size < SLOTS / 4) {
      times.add(`${String(rand(24)).padStart(2, '0')}:${String(rand(4) * 15).padStart(2, '0')}`);
    }
    return { day: day as WeekdayValue, times: [...times].sort() };
  });
}
const rules = Array.from({ length: RULES }, (_, i) => ({
  id: i + 1,
  name: `Rule ${i + 1}`,
  sites: Array.from({ length: 1 + rand(10) }, (_, j) => j + 1),
  times: ruleTimes(),
  enable: true,
}));

function measure(fn: () => unknown, reps = REPS): { median: number; p95: number } {
  const ms: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)], p95: ms[Math.min(ms.length - 1, Math.ceil(0.95 * ms.length) - 1)] };
}
async function measureAsync(fn: () => Promise<unknown>, reps = REPS) {
  const ms: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)], p95: ms[Math.min(ms.length - 1, Math.ceil(0.95 * ms.length) - 1)] };
}
const f = (n: number) => n.toFixed(2);
const rows: [string, string, string, string][] = [];
const row = (name: string, m: { median: number; p95: number }, note = '') =>
  rows.push([name, f(m.median), f(m.p95), note]);

console.log(
  `${RULES} rules x ${SLOTS} slots, zone ${ZONE}, ${REPS} reps; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ')}`,
);
const from = Date.UTC(2026, 10, 23, 5, 0);

// Raw baseline: a fresh croner job per slot, asked for its next run, the minimum taken.
const raw = measure(() => {
  for (const r of rules) {
    let best = Number.POSITIVE_INFINITY;
    for (const s of slotsOf(r.times)) {
      const t = new Cron(slotCron(s), { timezone: ZONE, mode: '5-part' }).nextRun(new Date(from))?.getTime();
      if (t !== undefined && t < best) best = t;
    }
  }
});
row('raw: croner job per slot, next run (all rules)', raw, 'baseline');
const next1 = measure(() => {
  for (const r of rules) nextRun(r.times, ZONE, from);
});
row('next-run list (all rules, next_run)', next1, `${(next1.median / raw.median).toFixed(2)}x raw`);
const next5 = measure(() => {
  for (const r of rules) nextRuns(r.times, ZONE, from, 5);
});
row('next five runs (all rules, overview)', next5, `${(next5.median / raw.median).toFixed(2)}x raw`);
const one = measure(() => nextRuns(rules[0].times, ZONE, from, 5), REPS * 10);
row('next five runs (one rule)', one);

const cal = measure(() => weekCalendar(rules, 4));
const cells = weekCalendar(rules, 4);
row('week calendar (all rules)', cal, `${cells.length} cells, ${cells.filter((c) => c.crowd).length} crowded`);

const plan = new LocalRuleScheduler();
await plan.resyncAll(rules, ZONE);
plan.due(from - 60_000, from);
const cold = await measureAsync(async () => {
  const p = new LocalRuleScheduler();
  await p.resyncAll(rules, ZONE);
  p.due(from, from + 60_000);
}, 3);
row('local timer: plan + first tick (all rules)', cold, 'every slot asks croner once');
let at = from;
const tick = measure(() => {
  plan.due(at, at + 60_000);
  at += 60_000;
}, 600);
row('local timer: one minute tick (all rules)', tick, '600 consecutive minutes');
const localSync = await measureAsync(() => plan.syncRule({ ...rules[0], times: ruleTimes() }, ZONE), REPS * 10);
row('sync one rule: local adapter', localSync);

// EventBridge Scheduler adapter on a mocked client.
const mock = mockClient(SchedulerClient);
let latencyMs = 0;
const answer =
  <T>(value: T) =>
  () =>
    latencyMs ? new Promise<T>((r) => setTimeout(() => r(value), latencyMs)) : Promise.resolve(value);
let existing: string[] = [];
let calls = 0;
const counting = <T>(value: T) => {
  const a = answer(value);
  return () => {
    calls++;
    return a();
  };
};
mock.on(ListSchedulesCommand).callsFake(() => {
  calls++;
  return answer({ Schedules: existing.map((Name) => ({ Name })) })();
});
mock.on(CreateScheduleCommand).callsFake(counting({}));
mock.on(UpdateScheduleCommand).callsFake(counting({}));
mock.on(DeleteScheduleCommand).callsFake(counting({}));
const client = new SchedulerClient({ region: 'eu-central-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
const cloud = eventBridgeRuleScheduler({
  client,
  groupName: 'patrol-bench',
  targetArn: 'arn:aws:lambda:eu-central-1:123456789012:function:autoCheck',
  roleArn: 'arn:aws:iam::123456789012:role/invoke',
});
const rule = rules[0];
const newSlots = () => slotsOf(rule.times).map((s) => scheduleName(rule.id, s.weekStamp));

for (const latency of [0, 25]) {
  latencyMs = latency;
  const reps = latency ? 5 : REPS;
  const rawCalls = await measureAsync(async () => {
    for (const s of slotsOf(rule.times)) {
      await client.send(
        new CreateScheduleCommand({
          Name: scheduleName(rule.id, s.weekStamp),
          GroupName: 'g',
          ScheduleExpression: 'x',
          FlexibleTimeWindow: { Mode: 'OFF' },
          Target: { Arn: 'a', RoleArn: 'r' },
        }),
      );
    }
  }, reps);
  row(`raw: ${SLOTS} sequential CreateSchedule, ${latency} ms/call`, rawCalls, 'baseline');
  existing = [];
  calls = 0;
  const create = await measureAsync(() => cloud.syncRule(rule, ZONE), reps);
  row(
    `sync one new rule (EventBridge), ${latency} ms/call`,
    create,
    `${calls / reps} calls; ${(create.median / rawCalls.median).toFixed(2)}x raw`,
  );
  existing = newSlots();
  calls = 0;
  const moved = { ...rule, times: ruleTimes() };
  const edit = await measureAsync(() => cloud.syncRule(moved, ZONE), reps);
  row(
    `sync one edited rule (EventBridge), ${latency} ms/call`,
    edit,
    `${calls / reps} calls; ${(edit.median / rawCalls.median).toFixed(2)}x raw`,
  );
}

const width = [52, 10, 10, 0];
console.log(['scenario', 'median ms', 'p95 ms', 'note'].map((h, i) => h.padEnd(width[i])).join(' '));
for (const r of rows) console.log(r.map((c, i) => c.padEnd(width[i])).join(' '));
