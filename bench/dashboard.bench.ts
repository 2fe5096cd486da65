// Home dashboard figures on the local stack (issue 26 item 7): 100 sites × 16 (process, mode) ×
// 90 days of check history, 10^6 subtasks, seeded through the check rollup writers
// (functions/checks/checkRollup.ts): the 89 earlier days as their ADDs summed per item (one ADD
// per item per day, what those subtasks would have added one by one), today's ~11,000 subtasks one
// at a time through recordSubtaskRollup (the engine's own call, window rolls included). The
// subtask rows themselves are not written: the dashboard never reads them (that is the point), so
// their number changes nothing below. Then each API answer the default home page asks for is timed
// against a raw 20-item Query of ~0.4 KB items in the same run, with the read units it reports.
// BENCH_SITES, BENCH_SUBTASKS, BENCH_REPS (51) shorten a run.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { addDays, dayOf, dayStart } from '../shared/calendarDay.js';
import { RunStatus } from '../shared/enums.js';
import { apiCaller } from './apiCaller.js';
import { startLocalStack } from '../scripts/local/stack.js';

const SITES = Number(process.env.BENCH_SITES ?? 100);
const SUBTASKS = Number(process.env.BENCH_SUBTASKS ?? 1_000_000);
const REPS = Number(process.env.BENCH_REPS ?? 51);
const DAYS = 90;
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

const dataDir = mkdtempSync(join(tmpdir(), 'patrol-bench-dashboard-'));
const stack = await startLocalStack({ dataDir, port: 0, demo: false, quiet: true, adminPassword: ADMIN_PASSWORD });
// This process writes the rollups itself, into the stack's table, through the same modules.
Object.assign(process.env, stack.env);
const { resetClients, dynamoClient } = await import('../functions/lib/aws/clients.js');
resetClients();
const { subtaskRollup, recordSubtaskRollup } = await import('../functions/checks/checkRollup.js');
const { addToRollup, mergeRollupAdds } = await import('../functions/lib/db/rollups.js');
const { mapLimit } = await import('../functions/lib/mapLimit.js');
const { scorecard, heatmap, timings } = await import('../functions/dashboard/checkDashboard.js');
const { readCheckScorecard } = await import('../functions/checks/checkRollup.js');
const { liveSiteNames } = await import('../functions/sites/service.js');
const call = apiCaller(stack.url);

interface Figure {
  scenario: string;
  median_ms: number;
  p95_ms: number;
  p95_over_raw: number;
  rcu: number;
  rows: number;
}

try {
  const token = (
    (await call('POST', '/login', undefined, { username: 'admin', password: ADMIN_PASSWORD })).data as { jwt: string }
  ).jwt;

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
    const adds = [];
    for (const sub of subtasksOf(day, d)) {
      adds.push(...(subtaskRollup(sub, ZONE)?.adds ?? []));
      seeded++;
    }
    const merged = mergeRollupAdds(adds);
    await mapLimit(merged, 32, (change) => addToRollup(change));
    writes += merged.length;
    if (d % 10 === 9) console.log(`  day ${d + 1}/${DAYS}: ${seeded.toLocaleString()} subtasks, ${writes} item writes`);
  }
  const todays = [...subtasksOf(today, DAYS - 1)];
  await mapLimit(todays, 16, (sub) => recordSubtaskRollup(sub as never));
  seeded += todays.length;
  const seedS = (performance.now() - seedStarted) / 1000;
  console.log(
    `seeded ${seeded.toLocaleString()} subtasks in ${seedS.toFixed(0)} s (${todays.length} today one by one, the earlier days as ${writes} summed ADDs)`,
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
  const api = (path: string) => async () => {
    const { data, rcu } = await call('GET', path, token);
    const d = data as { result?: unknown[]; cells?: unknown[] };
    return { rcu, rows: (d.result ?? d.cells ?? []).length };
  };
  async function measure(scenario: string, run: () => Promise<{ rcu: number; rows: number }>) {
    await run(); // warm-up
    const ms: number[] = [];
    let last = { rcu: 0, rows: 0 };
    for (let i = 0; i < REPS; i++) {
      const t = performance.now();
      last = await run();
      ms.push(performance.now() - t);
    }
    return { scenario, median_ms: quantile(ms, 0.5), p95_ms: quantile(ms, 0.95), rcu: last.rcu, rows: last.rows };
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
    <T>(read: () => Promise<{ result?: T[]; cells?: T[]; rcu: number }>) =>
    async () => {
      const out = await read();
      return { rcu: out.rcu, rows: (out.result ?? out.cells ?? []).length };
    };
  const timingsSite = siteIds[0];
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
    ['in-process timings(site, 30)', inProcess(() => timings(timingsSite, 30))],
    ['rules Query of the calendar (its read units)', rulesQuery],
    // The same answers through HTTP, the API pipeline (auth, envelope) and JSON: what the browser waits for.
    ['GET /health (the pipeline alone, no read)', async () => ({ ...(await call('GET', '/health')), rows: 0 })],
    ['GET /dashboard/scorecard?days=7 (Health)', api('/dashboard/scorecard?days=7')],
    ['GET /dashboard/heatmap?days=90 (History)', api('/dashboard/heatmap?days=90')],
    [`GET /dashboard/timings?days=30 (Timings)`, api(`/dashboard/timings?site_id=${timingsSite}&days=30`)],
    ['GET /auto-check/calendar (Next runs)', api('/auto-check/calendar')],
    ['GET /dashboard/scorecard?days=30', api('/dashboard/scorecard?days=30')],
    ['GET /dashboard/scorecard?days=90', api('/dashboard/scorecard?days=90')],
  ];
  // The bank and delivery panels' routes belong to the bank monitor; measured when present.
  for (const [name, path] of [
    ['GET /dashboard/bank?hours=24 (Bank)', '/dashboard/bank?hours=24'],
    ['GET /dashboard/delivery?hours=24 (Delivery)', '/dashboard/delivery?hours=24'],
  ] as const) {
    try {
      await call('GET', path, token);
      plan.push([name, api(path)]);
    } catch (error) {
      console.log(`${name}: not measured (${(error as Error).message})`);
    }
  }
  console.log(`measuring ${REPS} calls each; load average ${load()}`);
  const raw = await measure(plan[0][0], plan[0][1]);
  const figures: Figure[] = [{ ...raw, p95_over_raw: 1 }];
  for (const [scenario, run] of plan.slice(1)) {
    const f = await measure(scenario, run);
    figures.push({ ...f, p95_over_raw: f.p95_ms / raw.p95_ms });
  }
  // The baseline again at the end: a machine whose load moved during the run shows it here.
  const rawAfter = await measure('raw 20-item Query (again, last)', rawQuery);
  figures.push({ ...rawAfter, p95_over_raw: rawAfter.p95_ms / raw.p95_ms });

  console.log(
    `\n${'scenario'.padEnd(46)} ${'median'.padStart(8)} ${'p95'.padStart(8)} ${'÷raw'.padStart(6)} ${'RCU'.padStart(7)} rows`,
  );
  for (const f of figures)
    console.log(
      `${f.scenario.padEnd(46)} ${f.median_ms.toFixed(1).padStart(8)} ${f.p95_ms.toFixed(1).padStart(8)} ${f.p95_over_raw.toFixed(2).padStart(6)} ${f.rcu.toFixed(1).padStart(7)} ${f.rows}`,
    );
  const page = figures.filter((f) => /\((Health|History|Timings|Next runs|Bank|Delivery)\)/.test(f.scenario));
  // The calendar's route reports no read units: its rules Query stands in for them.
  const calendarRcu = figures.find((f) => f.scenario.startsWith('rules Query'))?.rcu ?? 0;
  const pageRcu = page.reduce((s, f) => s + (Number.isNaN(f.rcu) ? calendarRcu : f.rcu), 0);
  console.log(
    `\ndefault home page: ${page.length} calls, ${pageRcu.toFixed(1)} RCU in all (Health and History share the scorecard's site names); worst p95 ÷ raw ${Math.max(...page.map((f) => f.p95_over_raw)).toFixed(2)}; load average ${load()}`,
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
  rmSync(dataDir, { recursive: true, force: true });
}
