// What the local stack costs while nobody uses it: CPU seconds a minute by process, with no demo
// data and no checks, after its first minute (lazily loaded handlers, the first run of every
// scheduled one). It is paid all day by an `npm start` left open, and it runs under every bench's
// figures. BENCH_IDLE_S (120) seconds are measured.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack } from '../scripts/local/stack.js';
import { cpuByBetween, cpuTotal, treeCpuBy } from './treeSampler.js';

const MEASURE_S = Number(process.env.BENCH_IDLE_S ?? 120);
const SETTLE_S = 75;

const dataDir = mkdtempSync(join(tmpdir(), 'patrol-bench-idle-'));
const stack = await startLocalStack({
  dataDir,
  secondFactor: 'off', // signs in with the password alone (AUTH_SECOND_FACTOR)
  port: 0,
  demo: false,
  quiet: true,
  adminPassword: 'bench-admin-pass-1',
  // The sandboxes in processes of their own, counted apart (`others`).
  sandboxesApart: true,
});
const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));
try {
  console.log(`idle stack: settling ${SETTLE_S} s, then measuring ${MEASURE_S} s`);
  await sleep(SETTLE_S);
  const before = treeCpuBy(process.pid);
  await sleep(MEASURE_S);
  const after = treeCpuBy(process.pid);
  const used = cpuByBetween(before, after);
  const perMinute = (s: number) => ((s * 60) / MEASURE_S).toFixed(2);
  const figures = Object.entries(used)
    .map(([part, s]) => `${part} ${perMinute(s)}`)
    .join(', ');
  console.log(`idle stack, CPU s a minute: ${figures}; all ${perMinute(cpuTotal(used))}`);
  console.log(
    '(root: the stack process: API, queues, S3, scheduled handlers; checker: its consumer process; others: the sandboxes)',
  );
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
