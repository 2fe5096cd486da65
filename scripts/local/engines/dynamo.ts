// Starts a local DynamoDB engine in a child process: dynalite (default; fast, embedded LevelDB)
// or DynamoDB Local (fidelity; Java). A child process puts the engine on the other core and
// makes it the only opener of its data directory (a second dynalite on one path crashes).

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { createTableInput } from '../../../functions/lib/db/tableSchema.js';
import { cpuProfileFlags } from '../cpuProfileFlags.js';

export type DynamoEngine = 'dynalite' | 'dynamodb-local';

/** The engine a `DYNAMO_ENGINE` setting names: DynamoDB Local when it says so, dynalite otherwise. */
export function dynamoEngineNamed(setting: string | undefined): DynamoEngine {
  return setting === 'dynamodb-local' ? 'dynamodb-local' : 'dynalite';
}

export interface DynamoHandle {
  endpoint: string;
  /** The engine's process. */
  pid: number | undefined;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);
const START_TIMEOUT_MS = 60_000;

export async function startDynamo(options: {
  dataDir: string;
  engine: DynamoEngine;
  port?: number;
  /**
   * The engine keeps its tables in memory instead of under dataDir, for tests that start a fresh
   * engine and never read its files back. DynamoDB Local: ~4× faster a write (35 ms on disk against
   * 9 ms on a loaded 2-core machine, 2026-11-27). dynalite (memory-level instead of LevelDB): the
   * check crash walk took 77 → 54 CPU-s, its engine 29 → 17 (2026-11-28). The stack stays on disk.
   */
  inMemory?: boolean;
}): Promise<DynamoHandle> {
  mkdirSync(options.dataDir, { recursive: true });
  const { child, port } =
    options.engine === 'dynalite'
      ? await spawnDynalite(options.inMemory ? undefined : options.dataDir, options.port ?? 0)
      : await spawnDynamoDbLocal(options.inMemory ? undefined : options.dataDir, options.port ?? (await freePort()));
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = () => stopChild(child);
  try {
    await waitUntilAnswering(endpoint, child);
  } catch (err) {
    await stop();
    throw err;
  }
  return { endpoint, pid: child.pid, stop };
}

/** Creates the table from the shared schema unless it exists, and waits until it is ACTIVE. */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = localClient(endpoint);
  const input = createTableInput(tableName);
  try {
    await client.send(new CreateTableCommand(input));
  } catch (err) {
    if (!(err instanceof Error && err.name === 'ResourceInUseException')) throw err;
    // A DATA_DIR from before a new index: add the missing ones (one per UpdateTable call).
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
    for (const index of input.GlobalSecondaryIndexes.filter((i) => !present.has(i.IndexName))) {
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: input.AttributeDefinitions,
          GlobalSecondaryIndexUpdates: [{ Create: index }],
        }),
      );
      await waitActive(client, tableName);
    }
  }
  try {
    await waitActive(client, tableName);
  } finally {
    client.destroy();
  }
}

/** Deletes a table and its items (a test's own table on a shared engine, once the file is done). */
export async function dropTable(endpoint: string, tableName: string): Promise<void> {
  const client = localClient(endpoint);
  try {
    await client.send(new DeleteTableCommand({ TableName: tableName }));
  } finally {
    client.destroy();
  }
}

async function waitActive(client: DynamoDBClient, tableName: string): Promise<void> {
  for (const deadline = Date.now() + START_TIMEOUT_MS; Date.now() < deadline; ) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const indexesReady = (Table?.GlobalSecondaryIndexes ?? []).every((i) => i.IndexStatus === 'ACTIVE');
    if (Table?.TableStatus === 'ACTIVE' && indexesReady) return;
    await sleep(50);
  }
  throw new Error(`table ${tableName} did not become ACTIVE`);
}

function localClient(endpoint: string): DynamoDBClient {
  // Local engines accept any credentials; fixed ones keep the SDK from searching the machine.
  return new DynamoDBClient({
    endpoint,
    region: process.env.AWS_REGION ?? 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
}

async function spawnDynalite(
  dataDir: string | undefined,
  port: number,
): Promise<{ child: ChildProcess; port: number }> {
  const server = fileURLToPath(new URL('./dynaliteServer.cjs', import.meta.url));
  // PATROL_DYNALITE_CPU_PROF=<dir>: the engine's own CPU profile, written when it stops.
  const args = [...cpuProfileFlags('PATROL_DYNALITE_CPU_PROF'), server, JSON.stringify({ path: dataDir, port })];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const port_ = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`dynalite exited with ${code} before listening`)));
  });
  return { child, port: port_ };
}

async function spawnDynamoDbLocal(
  dataDir: string | undefined,
  port: number,
): Promise<{ child: ChildProcess; port: number }> {
  const dir = join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
  const child = spawn(
    'java',
    [
      // One collector thread: G1's concurrent threads cost more CPU than they save on two cores
      // (the fidelity project: 182-191 CPU-s with G1, 167-173 with the serial collector).
      '-XX:+UseSerialGC',
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(dir, 'DynamoDBLocal.jar'),
      '-sharedDb',
      ...(dataDir === undefined ? ['-inMemory'] : ['-dbPath', dataDir]),
      '-port',
      String(port),
    ],
    { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  // Java cannot watch our stdin; at least end it with this process.
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  child.once('exit', () => process.off('exit', kill));
  return { child, port };
}

async function waitUntilAnswering(endpoint: string, child: ChildProcess): Promise<void> {
  const client = localClient(endpoint);
  try {
    for (const deadline = Date.now() + START_TIMEOUT_MS; Date.now() < deadline; ) {
      if (child.exitCode !== null) throw new Error(`DynamoDB engine exited with ${child.exitCode}`);
      try {
        await client.send(new ListTablesCommand({}));
        return;
      } catch {
        await sleep(100);
      }
    }
    throw new Error(`DynamoDB engine at ${endpoint} did not answer within ${START_TIMEOUT_MS} ms`);
  } finally {
    client.destroy();
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // dynalite stops when its stdin ends (it ignores signals); DynamoDB Local on SIGTERM.
  if (child.stdin) child.stdin.end();
  else child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
