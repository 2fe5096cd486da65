// Home dashboard figures on the local stack (issue 26 item 7): 100 sites × 16 (process, mode) ×
// 90 days of check history, 10^6 subtasks, seeded through the check rollup writers
// (functions/checks/checkRollup.ts): the 89 earlier days as their ADDs summed per item (one ADD
// per item per day, what those subtasks would have added one by one), today's ~11,000 subtasks one
// at a time through recordSubtaskRollup (the engine's own call), then the refresher's roll. The
// subtask rows themselves are not written: the dashboard never reads them (that is the point), so
// their number changes nothing below. Then each API answer the default home page asks for is timed
// against a raw 20-item Query of ~0.4 KB items in the same run, with the read units it reports.
// The Bank and Delivery panels read the bank monitor's day figures of BENCH_BANK_ACCOUNTS (200)
// accounts, seeded through the poll's and the deliveries' own writers.
// Each call's CPU time is reported beside its wall time, in this process (the stack's API, and the
// bench's own fetch and JSON.parse, as a browser's) and in the dynalite child: load stretches wall
// time, not CPU time. Each dashboard answer is measured cold (no shared answer kept) and shared
// (served again within DASHBOARD_SHARED_MS). BENCH_ONLY=<regex> measures some scenarios only,
// BENCH_PROFILE=<dir> writes a CPU profile of this process per scenario.
// BENCH_SITES, BENCH_SUBTASKS, BENCH_REPS (51) shorten a run. BENCH_DATA_DIR keeps the stack's data
// in that directory and measures again without seeding when a run of the same size seeded it today
// (seeding 10^6 subtasks takes minutes).

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { addDays, dayOf, dayStart } from '../shared/calendarDay.js';
import { BankAccountStatus, RunStatus } from '../shared/enums.js';
import { apiCaller } from './apiCaller.js';
import { childPids, cpuNs } from './cpuMeter.js';
import { startLocalStack } from '../scripts/local/stack.js';
import { LAMBDAS } from '../functions/registry.js';
import type { SwitchStatus } from '../shared/schemas/bank.js';
import {
  type BankDashboard,
  type DeliveryDashboard,
  type Heatmap,
  heatmapCells,
  scorecardRows,
  TIMINGS_SITES_DAYS,
  timingsOpeningSite,
  type Scorecard,
} from '../shared/schemas/dashboard.js';

const SITES = Number(process.env.BENCH_SITES ?? 100);
const SUBTASKS = Number(process.env.BENCH_SUBTASKS ?? 1_000_000);
const REPS = Number(process.env.BENCH_REPS ?? 51);
const ACCOUNTS = Number(process.env.BENCH_BANK_ACCOUNTS ?? 200);
/** BENCH_ONLY=<regex>: measure only the scenarios it matches (and the raw baseline). */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : undefined;
/** BENCH_PROFILE=<dir>: a CPU profile of this process (API and handlers) per scenario, into that directory. */
const PROFILE_DIR = process.env.BENCH_PROFILE;
const DAYS = 90;
/** Subtasks of each earlier day added one by one after the day's summed ADDs. */
const LAST_ONE_BY_ONE = 24;
const ZONE = 'Asia/Yangon'; // the system config's default
const CELLS = [1, 2, 3, 4, 5, 6, 7, 8].flatMap((process) => [1, 3].map((mode) => ({ process, mode })));
const ADMIN_PASSWORD = 'bench-admin-pass-1';

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

/** A deterministic pseudo-random sequence, so two runs seed the same history. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

const keptDir = process.env.BENCH_DATA_DIR;
const dataDir = keptDir ?? mkdtempSync(join(tmpdir(), 'patrol-bench-dashboard-'));
/** What a kept directory was seeded with: reused only by a run of the same size on the same day. */
interface Seeded {
  day: string;
  sites: number;
  subtasks: number;
  accounts: number;
  siteIds: number[];
  seed_s: number;
}
const seededFile = join(dataDir, 'bench-seeded.json');
const ZONE_TODAY = dayOf(Date.now(), ZONE);
const kept = keptDir && existsSync(seededFile) ? (JSON.parse(readFileSync(seededFile, 'utf8')) as Seeded) : undefined;
const reuse =
  kept?.day === ZONE_TODAY && kept.sites === SITES && kept.subtasks === SUBTASKS && kept.accounts === ACCOUNTS
    ? kept
    : undefined;
// A kept directory seeded otherwise (another size, an earlier day) starts again empty.
if (keptDir && !reuse) rmSync(keptDir, { recursive: true, force: true });
const stack = await startLocalStack({
  dataDir,
  secondFactor: 'off', // signs in with the password alone (AUTH_SECOND_FACTOR)
  port: 0,
  demo: false,
  quiet: true,
  adminPassword: ADMIN_PASSWORD,
  // Nothing runs beside the answers measured: no bank polls (the figures are seeded), no rule's
  // checks, and no repair at start (it would rebuild the seeded rollups from rows never written).
  lambdas: LAMBDAS.filter(
    (l) => !['bankDispatcher', 'bankDispatchAtStart', 'bankPoller', 'autoCheck', 'dataRepair'].includes(l.name),
  ),
});
// This process writes the rollups itself, into the stack's table, through the same modules.
Object.assign(process.env, stack.env);
const { resetClients, dynamoClient } = await import('../functions/lib/aws/clients.js');
resetClients();
const { subtaskRollup, recordSubtaskRollup, rollCheckRollups } = await import('../functions/checks/checkRollup.js');
const { addToRollup, mergeRollupAdds } = await import('../functions/lib/db/rollups.js');
const { mapLimit } = await import('../functions/lib/mapLimit.js');
const { scorecard, heatmap, timings } = await import('../functions/dashboard/checkDashboard.js');
const { readCheckScorecard } = await import('../functions/checks/checkRollup.js');
const { liveSiteNames } = await import('../functions/sites/service.js');
const bankService = await import('../functions/bank/service.js');
const { bankStore } = await import('../functions/bank/store.js');
const { addDayFigures, LEASE_MS } = await import('../functions/bank/poll.js');
const { sketchAttr, sketchBucket } = await import('../functions/lib/durationSketch.js');
const call = apiCaller(stack.url);

/** Runs `work` under V8's sampling profiler and writes `<dir>/<scenario>.cpuprofile` (open it in Chrome's DevTools). */
async function profiled<T>(scenario: string, work: () => Promise<T>): Promise<T> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    const dir = PROFILE_DIR as string;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${scenario.replace(/[^\w]+/g, '_').slice(0, 60)}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

interface Figure {
  scenario: string;
  median_ms: number;
  p95_ms: number;
  p95_over_raw: number;
  rcu: number;
  rows: number;
  /** CPU per call (ms): this process (the stack's API, and the caller) and the dynalite child. */
  cpu_node_ms: number;
  cpu_dynalite_ms: number;
}

try {
  const token = (
    (await call('POST', '/login', undefined, { username: 'admin', password: ADMIN_PASSWORD })).data as { jwt: string }
  ).jwt;

  /** Sites, rules and 90 days of check history through the rollup writers. */
  async function seedHistory(): Promise<{ siteIds: number[]; seeded: number; seedS: number }> {
    // --- sites and rules -------------------------------------------------------------------------
    const siteIds = await mapLimit(
      Array.from({ length: SITES }, (_, i) => i),
      6,
      async (i) =>
        (
          (
            await call('POST', '/sites', token, {
              name: `Site-${String(i + 1).padStart(3, '0')}`,
              url: stack.sandboxSiteUrl,
              accounts: [{ user: 'agent01', pwd: 'sandbox123' }],
            })
          ).data as { id: number }
        ).id,
    );
    // Weekly rules of ten sites each (ten for 100 sites), twice a day: the calendar the Next runs panel reads.
    for (let r = 0; r < Math.ceil(siteIds.length / 10); r++)
      await call('POST', '/auto-check/rules', token, {
        name: `Rule ${r + 1}`,
        sites: siteIds.slice(r * 10, r * 10 + 10),
        points: [{ point: 1, modes: [1] }],
        times: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, times: [`0${r % 10}:15`, `1${r % 10}:45`] })),
      });

    // --- history ---------------------------------------------------------------------------------
    const now = Date.now();
    const today = dayOf(now, ZONE);
    const perCellDay = SUBTASKS / (siteIds.length * CELLS.length * DAYS);
    const rnd = random(26);
    /** The subtasks of one (site, cell) on one day, as the engine leaves them when they end. */
    function* subtasksOf(day: string, dayIndex: number) {
      const noon = dayStart(day, ZONE) + 12 * 3_600_000;
      for (const [s, site_id] of siteIds.entries())
        for (const [c, { process, mode }] of CELLS.entries()) {
          // Whole subtasks, spread so the total is SUBTASKS: cell-day k gets floor((k+1)p) - floor(kp).
          const k = (dayIndex * siteIds.length + s) * CELLS.length + c;
          const n = Math.floor((k + 1) * perCellDay) - Math.floor(k * perCellDay);
          for (let i = 0; i < n; i++) {
            const failed = rnd() < 0.03 + (s % 17 === 0 ? 0.2 : 0);
            const flaky = !failed && rnd() < 0.02;
            const ms = Math.round((800 + process * 400) * Math.exp((rnd() - 0.5) * 0.8));
            const end = Math.min(now - 1000, noon + i * 60_000);
            yield {
              site_id,
              process: process as never,
              mode: mode as never,
              status: failed ? RunStatus.values.Failed : RunStatus.values.Done,
              start_at: end - ms,
              end_at: end,
              flaky,
              degraded: !failed && ms > 3000 + process * 400,
              duration_ms: ms,
            };
          }
        }
    }

    console.log(
      `seeding ${SUBTASKS.toLocaleString()} subtasks: ${siteIds.length} sites x ${CELLS.length} cells x ${DAYS} days; load average ${load()}`,
    );
    const seedStarted = performance.now();
    let seeded = 0;
    let writes = 0;
    for (let d = 0; d < DAYS - 1; d++) {
      const day = addDays(today, d - (DAYS - 1));
      const subs = [...subtasksOf(day, d)];
      // The day's last subtasks one by one, as they ended: a past day keeps the loose numbers of
      // its last ADDs (those after its item's last pack), which is what a reader pays most for.
      // Those are the last of (site, process, mode) cells spread over the sites, so each cell's last status stays its last.
      const lastOfCell = new Map<string, number>();
      for (const [i, sub] of subs.entries()) lastOfCell.set(`${sub.site_id}#${sub.process}${sub.mode}`, i);
      const stride = Math.max(1, Math.floor(lastOfCell.size / LAST_ONE_BY_ONE));
      const picked = new Set([...lastOfCell.values()].filter((_, j) => j % stride === 0).slice(0, LAST_ONE_BY_ONE));
      const last = subs.filter((_, i) => picked.has(i));
      const merged = mergeRollupAdds(
        subs.flatMap((sub, i) => (picked.has(i) ? [] : (subtaskRollup(sub, ZONE)?.adds ?? []))),
      );
      await mapLimit(merged, 32, (change) => addToRollup(change));
      for (const sub of last) await Promise.all((subtaskRollup(sub, ZONE)?.adds ?? []).map((c) => addToRollup(c)));
      seeded += subs.length;
      writes += merged.length + 2 * last.length;
      if (d % 10 === 9)
        console.log(`  day ${d + 1}/${DAYS}: ${seeded.toLocaleString()} subtasks, ${writes} item writes`);
    }
    const todays = [...subtasksOf(today, DAYS - 1)];
    await mapLimit(todays, 16, (sub, i) => recordSubtaskRollup({ ...sub, id: i + 1 } as never));
    seeded += todays.length;
    // What the dashboard refresher does every minute: the windows and the sealed heatmap days from the day items.
    await rollCheckRollups(now, siteIds);
    const seedS = (performance.now() - seedStarted) / 1000;
    console.log(
      `seeded ${seeded.toLocaleString()} subtasks in ${seedS.toFixed(0)} s (${todays.length} today one by one, the earlier days as ${writes} ADDs: summed, then each day's last ${LAST_ONE_BY_ONE} one by one)`,
    );
    return { siteIds, seeded, seedS };
  }
  /**
   * The bank monitor's day figures of ACCOUNTS accounts through their own writers, summed per account
   * and day as many polls and deliveries would have left them: yesterday's moved to its rollup record by
   * today's first poll release (poll.ts addDayFigures, as every poll), today's on the poll record, and
   * the deliveries' outcomes added to each day's rollup record (the delivery's store call). An account
   * is polled every 30 s all day, has two sub-accounts, some statements by day; a few are stale, some
   * are not Enable. Nothing polls for real meanwhile (no dispatcher or poller in this stack).
   */
  async function seedBank(): Promise<void> {
    const store = bankStore();
    const rnd = random(24);
    const now = Date.now();
    const today = dayOf(now, ZONE);
    const yesterday = addDays(today, -1);
    const dayFigures = (polls: number, hours: number) => {
      const figures: Record<string, number> = { polls, polls_failed: Math.floor(polls * 0.01 * rnd() * 3) };
      // Poll lag: most polls start within a few hundred ms of their second, a few much later.
      for (let i = 0; i < polls; i++) {
        const lag = Math.round(30 * Math.exp(rnd() * 3.5) * (rnd() < 0.02 ? 20 : 1));
        const attr = sketchAttr('l', sketchBucket(lag));
        figures[attr] = (figures[attr] ?? 0) + 1;
      }
      // Statements in business hours, a balance change with most, now and then one unreconciled.
      let statements = 0;
      for (let h = 8; h < Math.min(21, hours); h++) {
        const n = Math.floor(rnd() * 5);
        if (n) figures[`h${h}`] = n;
        statements += n;
      }
      figures.statements = statements;
      figures.balances = Math.round(statements * 0.9);
      figures.unreconciled = rnd() < 0.1 ? 1 : 0;
      return figures;
    };
    const hoursToday = Math.floor((now - dayStart(today, ZONE)) / 3_600_000);
    const { Enable, Incorrect, Locked, Wrong, Disable } = BankAccountStatus.values;
    await mapLimit(
      Array.from({ length: ACCOUNTS }, (_, i) => i),
      8,
      async (i) => {
        const account = await bankService.createAccount({
          bank_name: i % 2 ? 2 : 1,
          user: `dash${String(i).padStart(4, '0')}`,
          pwd: 'sandbox123',
        });
        const id = account.id;
        // Statuses as polls leave them (a refused sign-in), and the operator's Disable.
        const status =
          i % 20 === 19 ? Disable : i % 40 === 7 ? Incorrect : i % 50 === 11 ? Locked : i % 100 === 23 ? Wrong : Enable;
        if (status === Disable) await bankService.updateAccount(id, { status: Disable as SwitchStatus });
        else if (status !== Enable) await store.updateAccount(id, { status });
        if (i % 60 === 5) await store.updateAccount(id, { stale: true, stale_since: now - 600_000 });
        // Two polls through the poll's own writers: one yesterday (its figures), then today's first.
        const subs = { [`${id}01`]: [id * 10 + 1, 1_523_400, 3], [`${id}02`]: [id * 10 + 2, 87_000, 3] };
        let state = {};
        for (const [day, at, figures] of [
          [yesterday, now - 86_400_000, dayFigures(2880, 24)],
          [today, now, dayFigures(Math.round((2880 * hoursToday) / 24), hoursToday)],
        ] as const) {
          const holder = `bench-${id}`;
          const lease = await store.takePollLease(id, holder, at, LEASE_MS);
          if (!lease.taken) throw new Error(`account ${id}: the poll lease is held`);
          state = lease.record.data;
          const change = {
            set: { last_refresh: at, last_success: at, last_statement_at: at - 120_000, subs, subs_built: 0 },
            remove: [] as string[],
          };
          await addDayFigures(store, id, state, day, figures, change);
          await store.releasePollLease(id, holder, change);
          // Deliveries of the day's statements: webhooks for half the accounts, the bank chat for all.
          const sent = figures.statements ?? 0;
          const whFailed = i % 9 === 0 ? 2 : 0;
          await store.addDayFigures(day, id, {
            ...(i % 2 ? { wh_sent: sent, wh_failed: whFailed } : {}),
            tg_sent: sent,
            tg_failed: i % 13 === 0 ? 1 : 0,
          });
        }
      },
    );
  }

  const { siteIds, seeded, seedS } = reuse
    ? { siteIds: reuse.siteIds, seeded: reuse.subtasks, seedS: reuse.seed_s }
    : await seedHistory();
  if (!reuse) {
    const t = performance.now();
    await seedBank();
    console.log(`seeded ${ACCOUNTS} bank accounts' days in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  }
  if (reuse)
    console.log(`measuring again the history seeded in ${dataDir} (${reuse.subtasks.toLocaleString()} subtasks)`);
  else if (keptDir)
    writeFileSync(
      seededFile,
      JSON.stringify({
        day: ZONE_TODAY,
        sites: SITES,
        subtasks: SUBTASKS,
        accounts: ACCOUNTS,
        siteIds,
        seed_s: seedS,
      }),
    );

  // --- the raw baseline: 40 log-like items of ~0.4 KB, a 20-item Query -------------------------
  const filler = 'x'.repeat(330);
  await mapLimit(
    Array.from({ length: 40 }, (_, i) => i),
    8,
    (i) =>
      dynamoClient().send(
        new PutCommand({
          TableName: stack.env.TABLE_NAME,
          Item: { pk: 'bench#raw', sk: String(i).padStart(4, '0'), process: 2, success: true, remark: filler },
        }),
      ),
  );
  const rawQuery = async () => {
    const out = await dynamoClient().send(
      new QueryCommand({
        TableName: stack.env.TABLE_NAME,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': 'bench#raw' },
        ScanIndexForward: false,
        Limit: 20,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    return { rcu: out.ConsumedCapacity?.CapacityUnits ?? 0, rows: out.Count ?? 0 };
  };

  // --- measure ---------------------------------------------------------------------------------
  /** An answer's rows: a list's length, a scorecard's rows, a heatmap's cells (its site-days with runs). */
  const rowsOf = (result: unknown): number => {
    if (Array.isArray(result)) return result.length;
    if ('site' in (result as Scorecard)) return (result as Scorecard).site.length;
    return (result as Heatmap).sites.reduce((n, s) => n + s.runs.filter((r) => r > 0).length, 0);
  };
  const api = (path: string) => async () => {
    const { data, rcu } = await call('GET', path, token);
    const d = data as { result?: unknown; cells?: unknown[] };
    return { rcu, rows: rowsOf(d.result ?? d.cells ?? []) };
  };
  // CPU time does not stretch with the machine's load as wall time does: per call, in this
  // process (the stack's API server and handlers, and the bench's own calls into it) and in dynalite.
  const [dynalitePid] = childPids(process.pid, 'dynalite');
  if (!dynalitePid) console.log('the dynalite child was not found: its CPU reads as 0');
  async function measure(scenario: string, run: () => Promise<{ rcu: number; rows: number }>) {
    // Warm-up: a few calls, so the garbage the scenario before left is collected before the timed ones.
    for (let i = 0; i < 5; i++) await run();
    const ms: number[] = [];
    let last = { rcu: 0, rows: 0 };
    const cpu0 = [cpuNs(process.pid), cpuNs(dynalitePid)];
    for (let i = 0; i < REPS; i++) {
      const t = performance.now();
      last = await run();
      ms.push(performance.now() - t);
    }
    const cpu1 = [cpuNs(process.pid), cpuNs(dynalitePid)];
    return {
      scenario,
      median_ms: quantile(ms, 0.5),
      p95_ms: quantile(ms, 0.95),
      rcu: last.rcu,
      rows: last.rows,
      cpu_node_ms: (cpu1[0] - cpu0[0]) / 1e6 / REPS,
      cpu_dynalite_ms: (cpu1[1] - cpu0[1]) / 1e6 / REPS,
    };
  }
  /** The rules the calendar reads (its route reports no read units): the same Query, measured. */
  const rulesQuery = async () => {
    let rcu = 0;
    let rows = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const out = await dynamoClient().send(
        new QueryCommand({
          TableName: stack.env.TABLE_NAME,
          IndexName: 'byType',
          KeyConditionExpression: 'gsi1pk = :t',
          ExpressionAttributeValues: { ':t': 'auto_rule' },
          ReturnConsumedCapacity: 'TOTAL',
          ExclusiveStartKey: start,
        }),
      );
      rcu += out.ConsumedCapacity?.CapacityUnits ?? 0;
      rows += out.Count ?? 0;
      start = out.LastEvaluatedKey;
    } while (start);
    return { rcu, rows };
  };
  const inProcess =
    <T>(read: () => Promise<{ result?: T; cells?: T[]; rcu: number }>) =>
    async () => {
      const out = await read();
      return { rcu: out.rcu, rows: rowsOf(out.result ?? out.cells ?? []) };
    };
  // The site the Timings panel opens on (the one the refresher keeps ready).
  const timingsSite = timingsOpeningSite(scorecardRows((await scorecard(TIMINGS_SITES_DAYS)).result)) ?? siteIds[0];
  const historyAnswer = await heatmap(90);
  const historyCells = heatmapCells(historyAnswer.result);
  /** An answer's JSON written and read back, as the API and the browser do, no I/O. */
  const jsonAlone = (result: unknown) => async () => {
    const back = JSON.parse(JSON.stringify({ code: 1000, msg: 'SUCCESS', data: { result } })) as {
      data: { result: unknown };
    };
    return { rcu: 0, rows: rowsOf(back.data.result) };
  };
  const plan: [string, () => Promise<{ rcu: number; rows: number }>][] = [
    ['raw 20-item Query (baseline)', rawQuery],
    // The services alone, in this process, as the list bench times repo.list against the same raw Query.
    ['in-process scorecard(7)', inProcess(() => scorecard(7))],
    ['  of which: window items (readCheckScorecard)', inProcess(() => readCheckScorecard(7))],
    [
      '  of which: site names (liveSiteNames)',
      async () => {
        const n = await liveSiteNames();
        return { rcu: n.rcu, rows: n.sites.size };
      },
    ],
    ['in-process heatmap(90)', inProcess(() => heatmap(90))],
    // The floor of a History answer: its JSON written and read, no I/O; as 9,000 cell objects (the
    // issue's shape, ~720 KB) and as columns (what the route answers, ~90 KB).
    ['History answer as cells, JSON alone', jsonAlone(historyCells)],
    ['History answer as columns, JSON alone', jsonAlone(historyAnswer.result)],
    ['in-process timings(site, 30)', inProcess(() => timings(timingsSite, 30))],
    ['rules Query of the calendar (its read units)', rulesQuery],
    // The same answers through HTTP, the API pipeline (auth, envelope) and JSON: what the browser waits for.
    ['GET /health (the pipeline alone, no read)', async () => ({ ...(await call('GET', '/health')), rows: 0 })],
    // The console asks for Health and History by columns; the rows (the calls' default) beside them.
    ['GET /dashboard/scorecard?days=7 (Health)', api('/dashboard/scorecard?days=7&shape=columns')],
    ['GET /dashboard/heatmap?days=90 (History)', api('/dashboard/heatmap?days=90&shape=columns')],
    ['GET /dashboard/scorecard?days=7 as rows', api('/dashboard/scorecard?days=7')],
    ['GET /dashboard/heatmap?days=90 as rows', api('/dashboard/heatmap?days=90')],
    [`GET /dashboard/timings?days=30 (Timings)`, api(`/dashboard/timings?site_id=${timingsSite}&days=30`)],
    ['GET /auto-check/calendar (Next runs)', api('/auto-check/calendar')],
    ['GET /dashboard/scorecard?days=30', api('/dashboard/scorecard?days=30&shape=columns')],
    ['GET /dashboard/scorecard?days=90', api('/dashboard/scorecard?days=90&shape=columns')],
  ];
  // The bank monitor's panels: rows are the accounts with a last statement, and the delivery answer's one summary.
  // The Bank answer's reads apart (functions/bank/dashboard.ts): where its cost goes.
  const bankReads = bankStore();
  const yesterday = addDays(ZONE_TODAY, -1);
  plan.push(
    [
      "  Bank, of which: a day's per-account records (dayFigures)",
      async () => {
        const r = await bankReads.dayFigures(yesterday);
        return { rcu: r.rcu, rows: r.figures.size };
      },
    ],
    [
      '  Bank, of which: every poll record (allPollStates)',
      async () => {
        const r = await bankReads.allPollStates(Date.now());
        return { rcu: r.rcu, rows: r.states.size };
      },
    ],
    [
      '  Bank, of which: counts, stale, latest unreconciled',
      async () => {
        const [a, b, c] = await Promise.all([
          bankReads.accountsByStatus(),
          bankReads.staleAccounts(),
          bankReads.latestUnreconciled(),
        ]);
        return { rcu: a.rcu + b.rcu + c.rcu, rows: a.counts.length + b.ids.length + (c.stat ? 1 : 0) };
      },
    ],
    [
      'GET /dashboard/bank?hours=24 (Bank)',
      async () => {
        const { data, rcu } = await call('GET', '/dashboard/bank?hours=24', token);
        return { rcu, rows: (data as BankDashboard).last_statement_at.length };
      },
    ],
    [
      'GET /dashboard/delivery?hours=24 (Delivery)',
      async () => {
        const { data, rcu } = await call('GET', '/dashboard/delivery?hours=24', token);
        return { rcu, rows: (data as DeliveryDashboard).webhook.sent > 0 ? 1 : 0 };
      },
    ],
  );
  {
    // What the bank panels show (a seed that wrote nothing would be measured as cheap).
    const bank = (await call('GET', '/dashboard/bank?hours=24', token)).data as BankDashboard;
    const delivery = (await call('GET', '/dashboard/delivery?hours=24', token)).data as DeliveryDashboard;
    console.log(
      `bank panel: ${bank.polls} polls, ${bank.statements.total} statements, lag p95 ${bank.poll_lag_p95_ms} ms, ${bank.stale.length} stale; delivery: webhooks ${delivery.webhook.sent} sent ${delivery.webhook.failed} failed, Telegram ${delivery.telegram.sent} sent ${delivery.telegram.failed} failed`,
    );
  }
  // Each dashboard answer three ways (functions/lib/http/keptAnswers.ts, sharedAnswers.ts):
  //  - computed: nothing kept or stored, every call reads the rollups (what the minute's refresher
  //    pays per answer, and the first caller after a start);
  //  - cold: nothing kept in this process, as a new Lambda instance or a wall screen alone: the
  //    stored answer when the route keeps that query (what the console asks), else computed;
  //  - shared: kept DASHBOARD_SHARED_MS in this process and served again.
  const { processAnswers } = await import('../functions/lib/http/sharedAnswers.js');
  const { handler: refreshAnswers } = await import('../functions/dashboard/refreshAnswers.js');
  await refreshAnswers();
  const measured = plan.flatMap(([scenario, run]): typeof plan =>
    scenario.startsWith('GET /dashboard/')
      ? [
          [
            `${scenario}, computed`,
            async () => {
              process.env.SHARED_ANSWERS = 'off';
              try {
                return await run();
              } finally {
                delete process.env.SHARED_ANSWERS;
              }
            },
          ],
          [
            `${scenario}, cold`,
            async () => {
              processAnswers.clear();
              return run();
            },
          ],
          [`${scenario}, shared`, run],
        ]
      : [[scenario, run]],
  );
  {
    // What each answer weighs on the wire (its JSON, uncompressed).
    const sizes: string[] = [];
    for (const path of [
      '/dashboard/scorecard?days=7',
      '/dashboard/heatmap?days=90',
      `/dashboard/timings?site_id=${timingsSite}&days=30`,
      '/auto-check/calendar',
      '/dashboard/bank?hours=24',
      '/dashboard/delivery?hours=24',
    ]) {
      const res = await fetch(`${stack.url}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
      sizes.push(`${path.split('?')[0]} ${((await res.text()).length / 1024).toFixed(0)} KB`);
    }
    console.log(`answers: ${sizes.join(', ')}`);
  }
  console.log(`measuring ${REPS} calls each; load average ${load()}`);
  // The baseline's code warmed up first (JIT), as every answer's is by the calls before it.
  for (let i = 0; i < 200; i++) await rawQuery();
  const raw = await measure(plan[0][0], plan[0][1]);
  const figures: Figure[] = [{ ...raw, p95_over_raw: 1 }];
  for (const [scenario, run] of measured.slice(1)) {
    if (ONLY && !ONLY.test(scenario)) continue;
    const f = PROFILE_DIR ? await profiled(scenario, () => measure(scenario, run)) : await measure(scenario, run);
    figures.push({ ...f, p95_over_raw: f.p95_ms / raw.p95_ms });
  }
  // The baseline again at the end: a machine whose load moved during the run shows it here.
  const rawAfter = await measure('raw 20-item Query (again, last)', rawQuery);
  figures.push({ ...rawAfter, p95_over_raw: rawAfter.p95_ms / raw.p95_ms });

  console.log(
    `\n${'scenario'.padEnd(46)} ${'median'.padStart(8)} ${'p95'.padStart(8)} ${'÷raw'.padStart(6)} ${'RCU'.padStart(7)} ${'CPU node'.padStart(9)} ${'CPU dyn'.padStart(8)} ${'÷raw'.padStart(6)} rows`,
  );
  const rawCpu = raw.cpu_node_ms + raw.cpu_dynalite_ms;
  for (const f of figures)
    console.log(
      `${f.scenario.padEnd(46)} ${f.median_ms.toFixed(1).padStart(8)} ${f.p95_ms.toFixed(1).padStart(8)} ${f.p95_over_raw.toFixed(2).padStart(6)} ${f.rcu.toFixed(1).padStart(7)} ${f.cpu_node_ms.toFixed(2).padStart(9)} ${f.cpu_dynalite_ms.toFixed(2).padStart(8)} ${((f.cpu_node_ms + f.cpu_dynalite_ms) / rawCpu).toFixed(2).padStart(6)} ${f.rows}`,
    );
  // The calendar's route reports no read units: its rules Query stands in for them.
  const calendarRcu = figures.find((f) => f.scenario.startsWith('rules Query'))?.rcu ?? 0;
  const rcuOf = (f: Figure) => (Number.isNaN(f.rcu) ? calendarRcu : f.rcu);
  const panel = /\((Health|History|Timings|Next runs|Bank|Delivery)\)/;
  // The page's read units are its cold calls' (a shared answer reads nothing); the calendar is never shared.
  const page = figures.filter((f) => panel.test(f.scenario) && !/, (shared|computed)$/.test(f.scenario));
  const pageRcu = page.reduce((s, f) => s + rcuOf(f), 0);
  const perPanel = page.map((f) => `${panel.exec(f.scenario)?.[1]} ${rcuOf(f)}`).join(', ');
  const worst = (list: Figure[]) => {
    const f = list.reduce((a, b) => (b.p95_over_raw > a.p95_over_raw ? b : a), list[0]);
    const cpu = (x: Figure) => (x.cpu_node_ms + x.cpu_dynalite_ms) / rawCpu;
    const byCpu = list.reduce((a, b) => (cpu(b) > cpu(a) ? b : a), list[0]);
    return f
      ? `p95 ${f.p95_over_raw.toFixed(2)} (${f.scenario}), CPU ${cpu(byCpu).toFixed(2)} (${byCpu.scenario})`
      : 'none';
  };
  const shared = figures.filter((f) => panel.test(f.scenario) && f.scenario.endsWith(', shared'));
  const computed = figures.filter((f) => panel.test(f.scenario) && f.scenario.endsWith(', computed'));
  const computedRcu = computed.reduce((s, f) => s + rcuOf(f), 0);
  console.log(
    `\ndefault home page: ${page.length} calls, ${pageRcu.toFixed(1)} RCU in all (${perPanel}); computed: ${computedRcu.toFixed(1)} RCU; load average ${load()}\n  worst ÷ raw, cold: ${worst(page)}\n  worst ÷ raw, shared: ${worst(shared)}\n  worst ÷ raw, computed: ${worst(computed)}`,
  );
  const out = join(import.meta.dirname ?? '.', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'dashboard.json'),
    JSON.stringify(
      {
        at: new Date().toISOString(),
        sites: siteIds.length,
        subtasks: seeded,
        reps: REPS,
        seed_s: seedS,
        page_rcu: pageRcu,
        figures,
      },
      null,
      2,
    ),
  );
} finally {
  await stack.stop();
  if (!keptDir) rmSync(dataDir, { recursive: true, force: true });
}
