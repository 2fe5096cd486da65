// Bank monitor figures on the local stack (issue 13): BENCH_BANK_ACCOUNTS (1,000) accounts at a
// 5 s interval, all day, against the sandbox banks, polled by the real dispatcher and poller for
// BENCH_BANK_SECONDS (120). Reports polls per second sustained, the lag of a poll after its due
// second (p50 / p95 / max), the time from a sandbox transaction to its statement row (p95), and
// the read and write units per poll (every DynamoDB call of the process, with
// ReturnConsumedCapacity). The raw baseline is GetItem throughput on the same dynalite in the same
// run. Everything (API, dispatcher, poller, fauxqs; dynalite and the sandbox banks in processes of
// their own) shares this machine. CPU per poll is reported by process (the sandbox banks apart: they
// stand for remote banks), the figure the machine's load does not move.
//
// Besides the averages over every poll, two costs measured apart (issue 24 item 1): `idle_poll`, the
// mean of the polls that ran and wrote no statement or balance stat (each poll is its own scope,
// bench/measuredPoller.ts), and `per_statement`, the mean of one stored statement with its
// notification (the bank store's statement-recording call in a scope of its own, plus its share of
// the kept counts its poll moved at the end for all the rows it wrote; delivery is the notifier's
// and not counted). The JSON is also written to bench/results/bank.json.

import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { LAMBDAS } from '../functions/registry.js';
import { startLocalStack } from '../scripts/local/stack.js';
import { cpuBetween, cpuSnapshot, type Namer } from './processCpu.js';
import { isReadCommand } from './readCommand.js';

const ACCOUNTS = Number(process.env.BENCH_BANK_ACCOUNTS ?? 1000);
const SECONDS = Number(process.env.BENCH_BANK_SECONDS ?? 120);
const TRANSACTIONS = Number(process.env.BENCH_BANK_TRANSACTIONS ?? 100);
const INTERVAL = 5;
/**
 * Seconds before measuring: the first poll of each sub-account stores its history (a baseline), far
 * more writes than a steady poll; on two shared cores 500 accounts take well over 20 s to get there.
 */
const WARMUP_S = Number(process.env.BENCH_BANK_WARMUP_S ?? Math.max(20, ACCOUNTS / 10));

const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] : Number.NaN;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

/** The sandbox banks' process: they stand for remote banks, so their CPU is not the product's. */
const SANDBOX = 'sandbox_banks';
/** The bench's processes by what they run: this one hosts the stack (and the bench's own measuring). */
const processName: Namer = (pid, cmdline) => {
  if (pid === process.pid) return 'stack';
  if (/dynalite/.test(cmdline)) return 'dynalite';
  if (/DynamoDBLocal/.test(cmdline)) return 'dynamodb_local';
  if (/sandbox\/bank\/process\.ts/.test(cmdline)) return SANDBOX;
  const consumer = /consumerProcess\.ts (\{.*\})/.exec(cmdline);
  if (consumer) return `consumer_${safeName(consumer[1] as string)}`;
  return undefined;
};
const safeName = (spec: string) => {
  try {
    return String((JSON.parse(spec) as { def: { name: string } }).def.name);
  } catch {
    return 'unknown';
  }
};

const dataDir = mkdtempSync(join(tmpdir(), 'patrol-bench-bank-'));
const stack = await startLocalStack({
  dataDir,
  secondFactor: 'off', // signs in with the password alone (AUTH_SECOND_FACTOR)
  port: 0,
  demo: false,
  quiet: true,
  adminPassword: 'bench-admin-1',
  sandboxesApart: true,
  // No restart here: the ledger file (written whole at every change) would only add the sandbox's CPU.
  keepSandboxBankLedger: false,
  // The registry's Lambdas, the poller's entry wrapped to measure each poll (same handler).
  lambdas: LAMBDAS.map((l) => (l.name === 'bankPoller' ? { ...l, entry: 'bench/measuredPoller.ts' } : l)),
});
try {
  const sandbox = stack.sandboxBankUrl;
  if (!sandbox) throw new Error('the sandbox banks did not start');
  // Loaded after the stack set the environment, as the stack's own handlers are.
  const { dynamoClient } = await import('../functions/lib/aws/clients.js');
  const { config } = await import('../functions/lib/config.js');
  const service = await import('../functions/bank/service.js');
  const { pollLagObservers } = await import('../functions/bank/pollDue.js');
  const storeModule = await import('../functions/bank/store.js');
  const { measuring, newTally, pollScope, polls: pollTallies } = await import('./measuredPoller.js');
  type Tally = ReturnType<typeof newTally>;

  // One stored statement with its notification: the store's call that records it runs in a scope
  // of its own (recordStatement; before issue 24 the id of its notification, then createStatement).
  const statementScope = new AsyncLocalStorage<Tally>();
  const statementTallies: Tally[] = [];
  const opening = new Map<Tally | undefined, Tally>();
  const STATEMENT_CALLS: Record<string, 'open' | 'whole' | 'flush'> = {
    recordStatement: 'whole',
    newNotificationId: 'open',
    createStatement: 'whole',
    flushCounts: 'flush',
  };
  const flushScope = new AsyncLocalStorage<Tally>();
  const inner = storeModule.bankStore() as unknown as Record<string, unknown>;
  const metered = new Proxy(inner, {
    get(target, name) {
      const value = target[name as string];
      const step = typeof name === 'string' ? STATEMENT_CALLS[name] : undefined;
      if (typeof value !== 'function' || !step) return value;
      return async (...args: unknown[]) => {
        const poll = pollScope.getStore();
        const call = () => (value as (...a: unknown[]) => unknown).apply(target, args);
        if (step === 'flush') return poll ? flushScope.run(poll, call) : call();
        const tally = opening.get(poll) ?? { ...newTally(), poll };
        if (step === 'open') opening.set(poll, tally);
        else opening.delete(poll);
        const out = await statementScope.run(tally, call);
        // A statement stored (not a duplicate), with its notification: a baseline's history lines
        // (the first read of a sub-account) are stored without one, and are not what this measures.
        const stored = out !== undefined && args[1] !== undefined;
        if (step === 'whole' && stored && measuring.on) statementTallies.push(tally);
        return out;
      };
    },
  });
  const { useBankStore: pointBankStoreAt } = storeModule;
  pointBankStoreAt(metered as unknown as ReturnType<typeof storeModule.bankStore>);

  // Raw baseline: GetItem on the same engine, 20 at a time, for 3 s.
  let gets = 0;
  const baseUntil = Date.now() + 3000;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (Date.now() < baseUntil) {
        await dynamoClient().send(new GetCommand({ TableName: config.tableName, Key: { pk: 'x', sk: 'y' } }));
        gets++;
      }
    }),
  );
  const baselineGets = gets / 3;

  console.log(`load: ${ACCOUNTS} accounts (KBZ and AYA alternately); ${cpus().length} cores, load ${load()}`);
  const loadStarted = Date.now();
  const accounts: { id: number; bank: 1 | 2; user: string }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < ACCOUNTS) {
        const i = next++;
        const bank = (i % 2 ? 2 : 1) as 1 | 2;
        const user = `bench${String(i).padStart(4, '0')}`;
        const a = await service.createAccount({ bank_name: bank, user, pwd: 'sandbox123' });
        await service.updateAccount(a.id, { interval: INTERVAL, range: [[0, 86_400]] });
        accounts.push({ id: a.id, bank, user });
      }
    }),
  );
  console.log(
    `loaded in ${((Date.now() - loadStarted) / 1000).toFixed(1)} s; warming up ${WARMUP_S} s (first polls are baselines)`,
  );
  await new Promise((r) => setTimeout(r, WARMUP_S * 1000));

  // Measure: lag per poll, capacity of every DynamoDB call, transactions to statements.
  const lags: number[] = [];
  pollLagObservers.push((lag) => lags.push(lag));
  const units = { read: 0, write: 0 };
  // Where the write units go: by command and entity type (the key's pk before '#'), table vs indexes.
  const writesBy = new Map<string, { calls: number; table: number; indexes: number }>();
  dynamoClient().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as {
        ReturnConsumedCapacity?: string;
        Key?: { pk?: unknown };
        Item?: { pk?: unknown };
      };
      input.ReturnConsumedCapacity ??= 'INDEXES';
      const out = await next(args);
      const consumed = (out.output as { ConsumedCapacity?: unknown }).ConsumedCapacity;
      type Capacity = { CapacityUnits?: number; Table?: { CapacityUnits?: number } };
      const list = (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) as Capacity[];
      const sum = list.reduce((s, c) => s + (c.CapacityUnits ?? 0), 0);
      const pk = String(input.Key?.pk ?? input.Item?.pk ?? '');
      for (const tally of [pollScope.getStore(), statementScope.getStore()]) {
        if (!tally) continue;
        tally.calls++;
        if (isReadCommand(context.commandName)) tally.rcu += sum;
        else tally.wcu += sum;
        if (/^PutItem|^Put/.test(context.commandName ?? '') && /^bank_(statement|balance_stat)#/.test(pk)) tally.rows++;
      }
      const flushing = flushScope.getStore();
      if (flushing && !isReadCommand(context.commandName)) {
        flushing.flushCalls++;
        flushing.flushWcu += sum;
      }
      if (isReadCommand(context.commandName)) units.read += sum;
      else {
        units.write += sum;
        const kind = `${context.commandName} ${pk ? pk.split('#')[0] : '(batch/transact)'}`;
        const row = writesBy.get(kind) ?? { calls: 0, table: 0, indexes: 0 };
        const table = list.reduce((s, c) => s + (c.Table?.CapacityUnits ?? c.CapacityUnits ?? 0), 0);
        row.calls++;
        row.table += table;
        row.indexes += sum - table;
        writesBy.set(kind, row);
      }
      return out;
    },
    { step: 'initialize', name: 'benchCapacity' },
  );

  // HTTP requests this process makes, by the service they go to (the engines, the sandbox banks).
  const requests = new Map<string, number>();
  const serviceOf = new Map<string, string>(
    Object.entries({
      dynamodb: stack.env.DYNAMO_ENDPOINT,
      sqs: stack.env.SQS_ENDPOINT,
      bank_portals: stack.env.SANDBOX_BANK_URL,
    }).flatMap(([name, url]) => (url ? [[new URL(url).host, name]] : [])),
  );
  subscribe('http.client.request.start', (message) => {
    if (!measuring.on) return;
    const request = (message as { request: { getHeader(h: string): unknown } }).request;
    const service = serviceOf.get(String(request.getHeader('host'))) ?? 'other';
    // SQS by action (its JSON protocol names it in a header): receives, deletes and sends apart.
    const action =
      service === 'sqs'
        ? String(request.getHeader('x-amz-target') ?? '')
            .split('.')
            .pop()
        : '';
    const name = action ? `${service} ${action}` : service;
    requests.set(name, (requests.get(name) ?? 0) + 1);
  });

  const started = Date.now();
  const cpuBefore = cpuSnapshot(process.pid, processName);
  measuring.on = true;
  const txns: { account: (typeof accounts)[number]; amount: number; at: number; made: boolean }[] = [];
  const txnTimer = setInterval(
    async () => {
      const account = accounts[Math.floor(Math.random() * accounts.length)] as (typeof accounts)[number];
      const amount = 1000 + txns.length;
      const at = Date.now();
      const txn = { account, amount, at, made: false };
      txns.push(txn);
      const res = await fetch(`${sandbox}/__sandbox/bank/transaction`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ bank: account.bank, user: account.user, amount }),
      }).catch(() => undefined);
      txn.made = res?.ok === true;
    },
    Math.max(50, (SECONDS * 1000 * 0.8) / TRANSACTIONS),
  );
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  clearInterval(txnTimer);
  measuring.on = false;
  const cpu = cpuBetween(cpuBefore, cpuSnapshot(process.pid, processName));
  const elapsed = (Date.now() - started) / 1000;
  const polls = lags.length;
  const measuredUnits = { ...units };
  pollLagObservers.length = 0;

  // Transaction → statement: the statement row's created_at against the moment it was added. One
  // not stored when the window closes is looked for again for 30 s: a late one (a poll that failed
  // and ran again) is counted with its delay, one never stored is missing (a lost statement).
  const toStatement: number[] = [];
  const statementOf = async (t: (typeof txns)[number]) => {
    // Every statement of the account (page_size 0): a busy account may hold more than a page.
    const page = await service.listStatements({
      page: 1,
      page_size: 0,
      sort: [],
      keywordField: [],
      filters: { account_id: { kind: 'number', op: '=', value: t.account.id } },
    });
    return page.result.find((s) => s.amount === t.amount);
  };
  let waiting = txns.filter((t) => t.made);
  const lateUntil = Date.now() + 30_000;
  let late = 0;
  for (let round = 0; waiting.length && (round === 0 || Date.now() < lateUntil); round++) {
    if (round > 0) await new Promise((r) => setTimeout(r, 2000));
    const still: typeof waiting = [];
    for (const t of waiting) {
      const row = await statementOf(t);
      if (!row) still.push(t);
      else {
        toStatement.push(row.created_at - t.at);
        if (round > 0) late++;
      }
    }
    waiting = still;
  }
  for (const t of waiting) {
    const detail = await service.getAccountDetail(t.account.id);
    console.log(
      `missing: account ${t.account.id} amount ${t.amount} made at ${t.at}; account status ${detail.status}, last refresh ${detail.last_refresh}`,
    );
  }
  const missing = waiting.length;
  lags.sort((a, b) => a - b);
  const mean = (tallies: Tally[]) => {
    const n = Math.max(1, tallies.length);
    const sum = tallies.reduce((s, t) => ({ calls: s.calls + t.calls, rcu: s.rcu + t.rcu, wcu: s.wcu + t.wcu }), {
      calls: 0,
      rcu: 0,
      wcu: 0,
    });
    return {
      calls: +(sum.calls / n).toFixed(2),
      rcu: +(sum.rcu / n).toFixed(2),
      wcu: +(sum.wcu / n).toFixed(2),
      max_wcu: Math.max(0, ...tallies.map((t) => t.wcu)),
      of: tallies.length,
    };
  };
  const idle = pollTallies.filter((t) => t.ran && t.rows === 0);
  toStatement.sort((a, b) => a - b);
  const due = (ACCOUNTS * elapsed) / INTERVAL;
  const figures = {
    accounts: ACCOUNTS,
    interval_s: INTERVAL,
    warmup_s: WARMUP_S,
    seconds: Math.round(elapsed),
    polls_due: Math.round(due),
    polls_run: polls,
    polls_per_s: +(polls / elapsed).toFixed(1),
    polls_per_s_due: +(due / elapsed).toFixed(1),
    lag_ms: { p50: quantile(lags, 0.5), p95: quantile(lags, 0.95), max: lags.at(-1) ?? Number.NaN },
    txn_to_statement_ms: {
      p50: quantile(toStatement, 0.5),
      p95: quantile(toStatement, 0.95),
      late,
      missing,
      not_made: txns.filter((t) => !t.made).length,
      of: txns.length,
    },
    idle_poll: mean(idle),
    // Each statement with its share of its poll's counts (the poll's rows share them evenly).
    per_statement: mean(
      statementTallies.map((t) => {
        const rows = Math.max(1, t.poll?.rows ?? 1);
        return {
          ...t,
          calls: t.calls + (t.poll?.flushCalls ?? 0) / rows,
          wcu: t.wcu + (t.poll?.flushWcu ?? 0) / rows,
        };
      }),
    ),
    // CPU (user + system) per poll run, by process, over the measured window: the figure the
    // machine's load does not move. `cores_busy` is the total over the window's wall clock.
    // `product`: the total without the sandbox banks (the remote banks' stand-in).
    cpu_ms_per_poll: Object.fromEntries(
      Object.entries({ ...cpu, product: cpu.total - (cpu[SANDBOX] ?? 0) })
        .sort(([, a], [, b]) => b - a)
        .map(([name, ms]) => [name, +(ms / Math.max(1, polls)).toFixed(2)]),
    ),
    http_requests_per_poll: Object.fromEntries(
      [...requests].sort(([, a], [, b]) => b - a).map(([name, n]) => [name, +(n / Math.max(1, polls)).toFixed(2)]),
    ),
    cores_busy: +(cpu.total / 1000 / elapsed).toFixed(2),
    rcu_per_poll: +(measuredUnits.read / Math.max(1, polls)).toFixed(2),
    wcu_per_poll: +(measuredUnits.write / Math.max(1, polls)).toFixed(2),
    baseline_get_items_per_s: Math.round(baselineGets),
    polls_vs_baseline_gets: +(polls / elapsed / baselineGets).toFixed(3),
    load_average: load(),
    // Write units per poll by command and entity, the table's part and the indexes' part.
    writes_per_poll: Object.fromEntries(
      [...writesBy]
        .sort(([, a], [, b]) => b.table + b.indexes - (a.table + a.indexes))
        .slice(0, 12)
        .map(([kind, w]) => [
          kind,
          {
            calls: +(w.calls / Math.max(1, polls)).toFixed(2),
            table: +(w.table / Math.max(1, polls)).toFixed(2),
            indexes: +(w.indexes / Math.max(1, polls)).toFixed(2),
          },
        ]),
    ),
  };
  console.log(JSON.stringify(figures, null, 2));
  const results = join(dirname(fileURLToPath(import.meta.url)), 'results');
  mkdirSync(results, { recursive: true });
  writeFileSync(join(results, 'bank.json'), `${JSON.stringify(figures, null, 2)}\n`);
} finally {
  await stack.stop();
  // Its data is the bench's own (a 1,000-account run writes ~0.3 GB).
  rmSync(dataDir, { recursive: true, force: true });
}
