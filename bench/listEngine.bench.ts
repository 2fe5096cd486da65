// List-engine figures on dynalite: for 1,000 / 10,000 / 100,000 rows of a log-like entity, the
// latency (median, p95) and read capacity of every list shape the console uses, against a raw
// 20-item Query on the same engine in the same run. Key-served shapes must stay within 2x the raw
// Query's p95 and 10 RCU at every size; bounded shapes within their read budget. Each size gets a
// fresh engine with on-disk persistence, like the local stack; rows are seeded with the
// repository's createMany (BatchWriteItem in the stored layout, counters moved once per batch).
// BENCH_SIZES=1000,10000 and BENCH_REPS=5 shorten a run. Figures go to docs/data-model.md.
// BENCH_ENGINE=dynamodb-local runs the same figures on DynamoDB Local (Java, the fidelity engine;
// it seeds about 2.5x slower), to tell what the engine costs from what the list engine adds.
// 201 timed calls a figure by default: with a baseline of about 2 ms, the p95 of a handful of
// calls is its worst call, scheduling noise more than the engine (a run takes about 2.5 minutes).
// The entity has the log types' layout (day buckets, rows 1 s apart: 86,400 a bucket), so the raw
// baseline queries the newest bucket's partition.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoClient, resetClients } from '../functions/lib/aws/clients.js';
import { CURSOR_PREFIX, forgetProcessCursors } from '../functions/lib/db/cursors.js';
import { defineEntity, type ListOptions, READ_BUDGET } from '../functions/lib/db/entity.js';
import { bucketOf, physical } from '../functions/lib/db/partitions.js';
import { createRepository } from '../functions/lib/db/repository.js';
import { type DynamoEngine, ensureTable, startDynamo } from '../scripts/local/engines/dynamo.js';
import { Process } from '../shared/enums.js';
import { field, keyOrderFields } from '../shared/listFields.js';
import { emptyListQuery, type ListQuery } from '../shared/listQuery.js';

interface LogRow {
  id: number;
  created_at: number;
  task_id: number;
  subtask_id: number;
  site_id: number;
  process: number;
  success: boolean;
  response_timing: number;
  msg: string;
  description: string;
}

const logDef = defineEntity<LogRow>({
  type: 'bench_log',
  fields: {
    ...keyOrderFields,
    task_id: field.number({ filter: 'key' }),
    subtask_id: field.number({ filter: 'key' }),
    process: field.enum(Process, { sort: 'bounded', filter: 'key' }),
    success: field.boolean({ sort: 'bounded', filter: 'key' }),
    response_timing: field.number({ sort: 'bounded', filter: 'bounded' }),
    msg: field.text({ filter: 'bounded', search: true }),
    description: field.text({ filter: 'bounded', search: true }),
  },
  keys: ['task_id', 'subtask_id', 'process', 'success'],
  ttlSeconds: 30 * 86400,
  // The layout of the log types: byType and the process/success slots in day buckets.
  partitioning: { bucket: 'day' },
});

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const REPS = Number(process.env.BENCH_REPS ?? 201);
const ENGINES: DynamoEngine[] = ['dynalite', 'dynamodb-local'];
const ENGINE = (process.env.BENCH_ENGINE ?? 'dynalite') as DynamoEngine;
// A misspelt name would otherwise start DynamoDB Local (startDynamo's other branch) unannounced.
if (!ENGINES.includes(ENGINE)) throw new Error(`BENCH_ENGINE must be one of ${ENGINES.join(', ')}`);
const ROWS_PER_TASK = 25;
const SEED_BATCH = 2000;
const SEED_PARALLEL = 4;
// Rows end a minute before the run, as a log table's newest rows do (they expire after 30 days):
// set per size before seeding.
let START = 0;

function row(i: number): Omit<LogRow, 'id'> {
  return {
    created_at: START + i * 1000,
    task_id: Math.floor(i / ROWS_PER_TASK) + 1,
    subtask_id: Math.floor(i / 5) + 1,
    site_id: (i % 40) + 1,
    process: (i % 8) + 1,
    success: i % 7 !== 0,
    response_timing: (i * 7919) % 5000,
    // 5 % of rows mention a timeout: the keyword search looks for them.
    msg: i % 20 === 0 ? `Login Timeout after ${i} ms` : `step ${i} finished`,
    description: `Bet placed on draw ${i % 300} for account user${i % 97}; response recorded by the bot`,
  };
}

const repo = createRepository(logDef);

async function seed(n: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: SEED_PARALLEL }, async () => {
      while (next < n) {
        const from = next;
        next = Math.min(n, next + SEED_BATCH);
        await repo.createMany(Array.from({ length: next - from }, (_, k) => row(from + k)));
      }
    }),
  );
  return n / ((performance.now() - started) / 1000);
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

interface Figure {
  size: number;
  scenario: string;
  kind: 'raw' | 'key' | 'bounded';
  median_ms: number;
  p95_ms: number;
  rcu: number;
  /** RCU of the first (warm-up) call: differs from rcu where a call keeps something (a range count). */
  first_rcu: number;
  total: number;
  exact: boolean;
}

type Call = () => Promise<{ rcu: number; total: number; exact: boolean }>;

async function measure(
  size: number,
  scenario: string,
  kind: Figure['kind'],
  call: Call,
  before?: () => Promise<unknown>,
) {
  if (before) await before();
  const first = await call(); // warm-up
  const times: number[] = [];
  let last = { rcu: 0, total: 0, exact: true };
  for (let r = 0; r < REPS; r++) {
    if (before) await before();
    const t = performance.now();
    last = await call();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const fig: Figure = {
    size,
    scenario,
    kind,
    median_ms: quantile(times, 0.5),
    p95_ms: quantile(times, 0.95),
    first_rcu: first.rcu,
    ...last,
  };
  figures.push(fig);
  return fig;
}

const list =
  (query: ListQuery, options?: ListOptions): Call =>
  async () => {
    const out = await repo.list(query, options);
    return { rcu: out.consumed_rcu, total: out.total_count, exact: out.total_exact !== false };
  };

/** The baseline: one 20-item Query, newest first, on the newest bucket's partition, same engine and run. */
const rawQuery =
  (size: number, limit = 20): Call =>
  async () => {
    const out = await dynamoClient().send(
      new QueryCommand({
        TableName: 'bench',
        IndexName: 'byType',
        KeyConditionExpression: 'gsi1pk = :t',
        ExpressionAttributeValues: { ':t': physical(logDef.type, bucketOf(START + (size - 1) * 1000, 'day')) },
        ScanIndexForward: false,
        Limit: limit,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    return { rcu: out.ConsumedCapacity?.CapacityUnits ?? 0, total: out.Count ?? 0, exact: true };
  };

/**
 * Makes the next direct jump to `page` one without a cursor: forgets this process's cursors and
 * deletes the table's cursor of that page. A page reached without a cursor keeps its own start,
 * written after the reply, so after a jump (`jumped`) it first waits for that write to land.
 * Not timed (measure's `before`).
 */
async function forgetCursorOf(page: number, jumped: boolean): Promise<void> {
  forgetProcessCursors();
  for (;;) {
    const out = await dynamoClient().send(
      new QueryCommand({
        TableName: 'bench',
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `${CURSOR_PREFIX}${logDef.type}` },
        ConsistentRead: true,
      }),
    );
    const mine = (out.Items ?? []).filter((i) => String(i.sk).endsWith(`#${page}`));
    for (const i of mine)
      await dynamoClient().send(new DeleteCommand({ TableName: 'bench', Key: { pk: i.pk, sk: i.sk } }));
    if (mine.length || !jumped) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

const figures: Figure[] = [];
/** A direct jump to page 5 without a cursor: it reads its 5 pages. */
const readsFivePages = (f: Figure) => f.scenario.startsWith('direct page 5') && !f.scenario.endsWith('refreshed');
/** 10 RCU a page; a direct jump to page 5 (no cursor) may read its 5 pages. */
const rcuMax = (f: Figure) => (readsFivePages(f) ? 5 * 2.5 + 1 : 10);
const writes: { size: number; rows_per_s: number }[] = [];
console.log(`engine ${ENGINE}; reps per figure: ${REPS}; page_size 20; read budget ${READ_BUDGET} rows`);
for (const size of SIZES) {
  const dir = mkdtempSync(join(tmpdir(), 'patrol-bench-'));
  const engine = await startDynamo({ dataDir: dir, engine: ENGINE });
  try {
    process.env.DYNAMO_ENDPOINT = engine.endpoint;
    process.env.TABLE_NAME = 'bench';
    process.env.AWS_ACCESS_KEY_ID ??= 'local';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
    resetClients();
    // A new engine per size: this process's cursors of the last size's table name nothing here.
    forgetProcessCursors();
    await ensureTable(engine.endpoint, 'bench');
    START = Math.floor(Date.now() / 1000) * 1000 - 60_000 - (size - 1) * 1000;
    const rate = await seed(size);
    writes.push({ size, rows_per_s: rate });
    console.log(
      `\n${size} rows seeded at ${rate.toFixed(0)} rows/s (createMany, ${SEED_PARALLEL} batches in parallel)`,
    );

    const midTask = Math.floor(size / ROWS_PER_TASK / 2);
    const page = (o: Partial<ListQuery>) => emptyListQuery({ page_size: 20, ...o });
    const raw = await measure(size, 'raw 20-item Query', 'raw', rawQuery(size));
    await measure(size, 'default page', 'key', list(page({})));
    // Direct jump first, each call without a cursor for page 5 (none exists until a page 4 or a
    // page 5 has been served): what the first visit of a jumped-to page costs.
    let jumps = 0;
    const firstVisit = (scenario: string, call: Call) =>
      measure(
        size,
        scenario,
        'key',
        () => {
          jumps++;
          return call();
        },
        () => forgetCursorOf(5, jumps > 0),
      );
    const unhinted = list(page({ page: 5 }));
    // As the table asks for it: it says it jumped (x-list-jump), so no cursor is looked up.
    await firstVisit('direct page 5', list(page({ page: 5, jump: true })));
    // A caller that does not say it jumped: the cursor is looked up first, the five pages read after it.
    await firstVisit('direct page 5, no jump hint', unhinted);
    // The same page again, as an open table refreshes it every 5 s: from the start it kept.
    await measure(size, 'direct page 5, refreshed', 'key', unhinted);
    // The table's Last page: read from the back of the list, one page, at any size.
    await measure(size, 'last page', 'key', list(page({ page: Math.ceil(size / 20), jump: true })));
    // What the five pages alone cost the engine: context for the direct jump, not its target.
    const rawPages = await measure(size, 'raw 100-item Query (5 pages)', 'raw', rawQuery(size, 100));
    await measure(size, 'page 5, page by page', 'key', list(page({ page: 5 })), async () => {
      for (let p = 1; p <= 4; p++) await repo.list(page({ page: p }));
    });
    await measure(size, 'enum filter', 'key', list(page({ filters: { process: { kind: 'enum', values: [3] } } })));
    await measure(
      size,
      'boolean filter',
      'key',
      list(page({ filters: { success: { kind: 'boolean', value: false } } })),
    );
    await measure(size, 'scoped page', 'key', list(page({}), { scope: { task_id: midTask } }));
    const mid = START + Math.floor(size / 2) * 1000;
    const newestDay = Math.floor((START + (size - 1) * 1000) / 86_400_000) * 86_400_000;
    await measure(
      size,
      'created_at range (10 min)',
      'key',
      list(page({ filters: { created_at: { kind: 'range', start: mid, end: mid + 600_000 } } })),
    );
    await measure(
      size,
      'created_at range (today)',
      'key',
      list(page({ filters: { created_at: { kind: 'range', start: newestDay, end: newestDay + 86_400_000 - 1 } } })),
    );
    await measure(
      size,
      'keyword search',
      'bounded',
      list(page({ keyword: 'timeout', keywordField: ['msg', 'description'] })),
    );
    await measure(size, 'non-key sort', 'bounded', list(page({ sort: [{ field: 'response_timing', order: 'desc' }] })));

    console.log('scenario                        median ms   p95 ms  p95/raw      RCU  1st RCU    total  verdict');
    for (const f of figures.filter((x) => x.size === size)) {
      const ratio = f.p95_ms / raw.p95_ms;
      const verdict =
        f.kind === 'raw'
          ? 'baseline'
          : f.kind === 'key'
            ? ratio <= 2 && f.rcu <= rcuMax(f)
              ? 'ok'
              : `MISS (${ratio > 2 ? 'latency' : ''}${f.rcu > rcuMax(f) ? ' rcu' : ''})`
            : `bounded${f.exact ? ', exact' : `, searched ${READ_BUDGET}`}`;
      // A first visit of page 5 reads its five pages (the issue allows N pages for page N): what
      // that read alone costs the engine is the context its verdict is read in.
      const pagesRatio = readsFivePages(f) ? `; ${(f.p95_ms / rawPages.p95_ms).toFixed(2)}x the raw 5 pages` : '';
      console.log(
        `${f.scenario.padEnd(30)} ${f.median_ms.toFixed(1).padStart(9)} ${f.p95_ms.toFixed(1).padStart(8)} ${ratio
          .toFixed(2)
          .padStart(
            8,
          )} ${f.rcu.toFixed(1).padStart(8)} ${f.first_rcu.toFixed(1).padStart(8)} ${String(f.total).padStart(8)}${
          f.exact ? ' ' : '+'
        } ${verdict}${pagesRatio}`,
      );
    }
  } finally {
    resetClients();
    await engine.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const out = join(import.meta.dirname ?? '.', 'results');
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, ENGINE === 'dynalite' ? 'listEngine.json' : `listEngine.${ENGINE}.json`),
  JSON.stringify({ at: new Date().toISOString(), engine: ENGINE, figures, writes }, null, 2),
);
