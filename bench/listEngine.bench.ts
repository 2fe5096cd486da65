// List-engine figures on dynalite: for 1,000 / 10,000 / 30,000 rows of a log-like entity, the
// latency (median, p95) and read capacity of the list shapes the console uses, plus write
// throughput. Each size gets a fresh engine with on-disk persistence, like the local stack.
// BENCH_SIZES=1000,10000 and BENCH_REPS=5 shorten a run. Figures go to docs/data-model.md.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resetClients } from '../functions/lib/aws/clients.js';
import { defineEntity, type ListOptions } from '../functions/lib/db/entity.js';
import { createRepository } from '../functions/lib/db/repository.js';
import { ensureTable, startDynamo } from '../scripts/local/engines/dynamo.js';
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
    id: 'number',
    created_at: 'datetime',
    task_id: 'number',
    subtask_id: 'number',
    process: 'enum',
    success: 'boolean',
    response_timing: 'number',
    msg: 'text',
    description: 'text',
  },
  keys: ['task_id', 'subtask_id'],
  ttlSeconds: 30 * 86400,
});

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,30000').split(',').map(Number);
const REPS = Number(process.env.BENCH_REPS ?? 11);
const CONCURRENCY = 16;
const ROWS_PER_TASK = 25;
const START = Date.UTC(2026, 0, 1);

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

async function load(n: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) await repo.create(row(next++));
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
  median_ms: number;
  p95_ms: number;
  rcu: number;
  rows: number;
}

async function measure(size: number, scenario: string, query: ListQuery, options?: ListOptions): Promise<Figure> {
  await repo.list(query, options); // warm-up
  const times: number[] = [];
  let rcu = 0;
  let rows = 0;
  for (let r = 0; r < REPS; r++) {
    const t = performance.now();
    const out = await repo.list(query, options);
    times.push(performance.now() - t);
    rcu = out.consumed_rcu;
    rows = out.total_count;
  }
  times.sort((a, b) => a - b);
  const fig = { size, scenario, median_ms: quantile(times, 0.5), p95_ms: quantile(times, 0.95), rcu, rows };
  console.log(
    `${String(size).padStart(6)}  ${scenario.padEnd(22)} ${fig.median_ms.toFixed(1).padStart(8)} ${fig.p95_ms
      .toFixed(1)
      .padStart(8)} ${fig.rcu.toFixed(1).padStart(8)} ${String(rows).padStart(7)}`,
  );
  return fig;
}

const figures: Figure[] = [];
const writes: { size: number; creates_per_s: number }[] = [];
console.log(`reps per figure: ${REPS}; page_size 20; latency includes the parallel total_count query`);
console.log('  rows  scenario               median ms   p95 ms      RCU   total');
for (const size of SIZES) {
  const dir = mkdtempSync(join(tmpdir(), 'patrol-bench-'));
  const engine = await startDynamo({ dataDir: dir, engine: 'dynalite' });
  try {
    process.env.DYNAMO_ENDPOINT = engine.endpoint;
    process.env.TABLE_NAME = 'bench';
    process.env.AWS_ACCESS_KEY_ID ??= 'local';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
    resetClients();
    await ensureTable(engine.endpoint, 'bench');
    const rate = await load(size);
    writes.push({ size, creates_per_s: rate });
    console.log(
      `${String(size).padStart(6)}  write: ${rate.toFixed(0)} creates/s (id ADD + conditional Put, concurrency ${CONCURRENCY})`,
    );

    const midTask = Math.floor(size / ROWS_PER_TASK / 2);
    const page = (o: Partial<ListQuery>) => emptyListQuery({ page_size: 20, ...o });
    figures.push(await measure(size, 'default page', page({})));
    figures.push(await measure(size, 'page 5', page({ page: 5 })));
    figures.push(await measure(size, 'parent-scoped page', page({}), { scope: { task_id: midTask } }));
    figures.push(await measure(size, 'enum filter', page({ filters: { process: { kind: 'enum', values: [3] } } })));
    figures.push(
      await measure(size, 'keyword search', page({ keyword: 'timeout', keywordField: ['msg', 'description'] })),
    );
    figures.push(await measure(size, 'non-key sort', page({ sort: [{ field: 'response_timing', order: 'desc' }] })));
  } finally {
    resetClients();
    await engine.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const out = join(import.meta.dirname ?? '.', 'results');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'listEngine.json'), JSON.stringify({ at: new Date().toISOString(), figures, writes }, null, 2));
