// The check engine's state machine without a browser (issue 25): what a subtask's claim and end cost
// now that each transition records its follow-ups in its own write (lib/db/outbox.ts), on dynalite,
// with the local SQS in this process. Checks of one task with three subtasks (login, then two more)
// are run end to end, claim and finish, one subtask at a time; each subtask's claim + end (with the
// task's and the operation's ends when it is the last) is timed, and its DynamoDB calls counted.
// Baseline in the same run: the two bare conditional UpdateItems a subtask's lifecycle needs at the
// least (Pending -> Running, Running -> Done), on rows of the same table.
// BENCH_CHECKS shortens a run. BENCH_DYNAMO=dynamodb-local runs it on DynamoDB Local, which reports
// every call's units per index (ReturnConsumedCapacity: INDEXES): the cloud's write units of a subtask,
// the index copies of each row written included (dynalite counts the table's alone).

import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Process, RunStatus, TaskStatus, TestMode } from '../shared/enums.js';
import { dynamoClient, resetClients } from '../functions/lib/aws/clients.js';
import { QUEUES } from '../functions/registry.js';
import { dynamoEngineNamed, ensureTable, startDynamo } from '../scripts/local/engines/dynamo.js';
import { startSqs } from '../scripts/local/engines/sqs.js';

const CHECKS = Number(process.env.BENCH_CHECKS ?? 40);
const PROCESSES = [Process.values.Login, Process.values.AgentSetting, Process.values.PlaceBets];

const dir = mkdtempSync(join(tmpdir(), 'patrol-bench-engine-'));
const engineName = dynamoEngineNamed(process.env.BENCH_DYNAMO);
const dynamo = await startDynamo({ dataDir: dir, engine: engineName, inMemory: engineName === 'dynamodb-local' });
const sqs = await startSqs({ queues: QUEUES, region: 'us-east-1' });
Object.assign(process.env, {
  DYNAMO_ENDPOINT: dynamo.endpoint,
  SQS_ENDPOINT: sqs.endpoint,
  TABLE_NAME: 'patrol-bench',
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  LOG_LEVEL: 'ERROR',
  ...Object.fromEntries(sqs.queues.map((q) => [`${q.name.toUpperCase()}_QUEUE_URL`, q.url])),
});
resetClients();
await ensureTable(dynamo.endpoint, 'patrol-bench');

// Imported once the environment points at the engines.
const { checkStore } = await import('../functions/checks/store.js');
const { claimSubtask, finishSubtask } = await import('../functions/checks/engine.js');
const { pendingSubtask } = await import('../functions/checks/pendingSubtask.js');

const calls = { reads: 0, writes: 0 };
// BENCH_TRACE=1: every call counted by command and the kind of item it touches (the pk before its '#').
const TRACE = process.env.BENCH_TRACE === '1';
/** Set around the engine's claim and end alone: the rows written before them and the baseline are not theirs. */
let tracing = false;
const trace = new Map<string, number>();
/** Units by the same names (DynamoDB Local: index copies included). */
const traceUnits = new Map<string, number>();
function traced(command: string, input: Record<string, unknown>): string {
  const keyOf = (o: unknown) => {
    const pk = String((o as { pk?: unknown } | undefined)?.pk ?? '');
    return pk.startsWith('count#') ? pk.replace(/=\d+/, '=N').replace(/#\d{4}.*$/, '#<day>') : pk.replace(/#.*$/, '');
  };
  const request = (input as { RequestItems?: Record<string, { PutRequest?: { Item: unknown } }[]> }).RequestItems;
  const kinds = request
    ? [
        ...new Set(
          Object.values(request)
            .flat()
            .map((r) => keyOf(r.PutRequest?.Item ?? (r as { Keys?: unknown[] }).Keys?.[0])),
        ),
      ].join('+')
    : keyOf(input.Key ?? input.Item) || String(input.IndexName ?? '');
  const name = `${command.replace(/Command$/, '')} ${kinds}`;
  trace.set(name, (trace.get(name) ?? 0) + 1);
  return name;
}
/** Units consumed, by where: the table's own and its indexes' copies (write), and reads. */
const units = { tableWrite: 0, indexWrite: 0, read: 0 };
const WRITES = /^(Put|Update|Delete|BatchWrite)/;
interface Consumed {
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}
dynamoClient().middlewareStack.add(
  ((
    next: (a: {
      input: { ReturnConsumedCapacity?: string };
    }) => Promise<{ output: { ConsumedCapacity?: Consumed | Consumed[] } }>,
    context: { commandName?: string },
  ) =>
    async (args: { input: { ReturnConsumedCapacity?: string } }) => {
      const write = WRITES.test(context.commandName ?? '');
      if (write) calls.writes++;
      else calls.reads++;
      const tracedAs = TRACE && tracing ? traced(context.commandName ?? '', args.input) : undefined;
      args.input.ReturnConsumedCapacity ??= 'INDEXES';
      const out = await next(args);
      const consumed = out.output.ConsumedCapacity;
      for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
        const onIndexes = Object.values(c.GlobalSecondaryIndexes ?? {}).reduce((a, i) => a + (i.CapacityUnits ?? 0), 0);
        const onTable = c.Table?.CapacityUnits ?? (c.CapacityUnits ?? 0) - onIndexes;
        if (tracedAs) traceUnits.set(tracedAs, (traceUnits.get(tracedAs) ?? 0) + onTable + onIndexes);
        if (!write) units.read += onTable + onIndexes;
        else {
          units.tableWrite += onTable;
          units.indexWrite += onIndexes;
        }
      }
      return out;
    }) as never,
  { step: 'initialize', name: 'benchCounter' },
);

async function newCheck() {
  const { operations, tasks, subtasks } = checkStore();
  const op = await operations.create({
    name: 1,
    status: RunStatus.values.Running,
    operator_id: null,
    site_id: null,
    rule_id: null,
    task_total: 1,
    task_done: 0,
    task_failed: 0,
    task_running: 0,
    open: 1,
    start_at: Date.now(),
    end_at: null,
    remark: '',
  });
  const task = await tasks.create({
    operation_id: op.id,
    site_id: 1,
    account_id: null,
    checkpoints: { points: PROCESSES.map((process) => ({ process, modes: [TestMode.values.D4] })) },
    status: TaskStatus.values.Pending,
    creator_id: null,
    task_total: PROCESSES.length,
    task_done: 0,
    task_failed: 0,
    task_running: 0,
    session_id: null,
    start_at: null,
    end_at: null,
    remark: '',
  });
  return subtasks.createMany(
    PROCESSES.map((process) =>
      pendingSubtask({ task_id: task.id, operation_id: op.id, site_id: 1, mode: TestMode.values.D4, process }),
    ),
  );
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(p * xs.length) - 1)];

let run = 0;
const engineMs: number[] = [];
const engineCalls = { reads: 0, writes: 0 };
const engineUnits = { tableWrite: 0, indexWrite: 0, read: 0 };
for (let c = 0; c < CHECKS; c++) {
  for (const sub of await newCheck()) {
    const before = { ...calls };
    const unitsBefore = { ...units };
    const t = performance.now();
    tracing = true;
    const claimed = await claimSubtask(sub.id, `bench-${++run}`);
    if (!claimed) throw new Error(`subtask ${sub.id} not claimed`);
    await finishSubtask(claimed, claimed.run_id as string, { success: true, msg: 'ok' });
    tracing = false;
    engineMs.push(performance.now() - t);
    engineCalls.reads += calls.reads - before.reads;
    engineCalls.writes += calls.writes - before.writes;
    for (const k of Object.keys(units) as (keyof typeof units)[]) engineUnits[k] += units[k] - unitsBefore[k];
  }
}
const subtasks = CHECKS * PROCESSES.length;

// Baseline: the two bare conditional transitions of a subtask, on rows written the same way.
const rawMs: number[] = [];
const rows = await newCheck();
for (let i = 0; i < subtasks; i++) {
  const key = { pk: `subtask#${rows[i % rows.length].id}`, sk: 'item' };
  const t = performance.now();
  for (const [from, to] of [
    [RunStatus.values.Pending, RunStatus.values.Running],
    [RunStatus.values.Running, RunStatus.values.Pending],
  ]) {
    await dynamoClient().send(
      new UpdateCommand({
        TableName: 'patrol-bench',
        Key: key,
        UpdateExpression: 'SET #s = :to',
        ConditionExpression: '#s = :from',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':from': from, ':to': to },
      }),
    );
  }
  rawMs.push(performance.now() - t);
}

const f = (n: number) => n.toFixed(1);
console.log(
  `checkEngine: ${subtasks} subtasks (${CHECKS} checks of ${PROCESSES.length}), ${engineName}, load ${loadavg()[0].toFixed(1)}`,
);
console.log('| Scenario | median ms | p95 ms | DynamoDB reads / writes per subtask |');
console.log('|---|---|---|---|');
console.log(
  `| claim + end through the engine (task and operation ends included) | ${f(percentile(engineMs, 0.5))} | ${f(percentile(engineMs, 0.95))} | ${f(engineCalls.reads / subtasks)} / ${f(engineCalls.writes / subtasks)} |`,
);
console.log(
  `| raw: two conditional UpdateItems | ${f(percentile(rawMs, 0.5))} | ${f(percentile(rawMs, 0.95))} | 0 / 2 |`,
);
const u = (n: number) => (n / subtasks).toFixed(2);
console.log(
  `units per subtask through the engine: write ${u(engineUnits.tableWrite + engineUnits.indexWrite)} (table ${u(engineUnits.tableWrite)}, index copies ${u(engineUnits.indexWrite)}), read ${u(engineUnits.read)}` +
    (engineName === 'dynalite' ? ' (dynalite reports no index copies: BENCH_DYNAMO=dynamodb-local for them)' : ''),
);
console.log(
  `engine ÷ raw: median ${f(percentile(engineMs, 0.5) / percentile(rawMs, 0.5))}×, p95 ${f(percentile(engineMs, 0.95) / percentile(rawMs, 0.95))}×`,
);

if (TRACE)
  for (const [name, n] of [...trace].sort((a, b) => b[1] - a[1]))
    console.log(
      `  ${(n / subtasks).toFixed(2).padStart(6)} a subtask: ${name} (${((traceUnits.get(name) ?? 0) / subtasks).toFixed(2)} units)`,
    );

resetClients();
await sqs.stop();
await dynamo.stop();
rmSync(dir, { recursive: true, force: true });
