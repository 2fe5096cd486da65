// The DynamoDB engine the project asks for (DYNAMO_ENGINE: dynalite by default, dynamodb-local in
// the fidelity project), with a table of one test file's own, and the repository's client and table
// pointed at it. Engines keep their tables in memory: a file never reads them back, and on disk
// every write cost more (DynamoDB Local ~4×; dynalite's LevelDB a third of the crash walk's CPU).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { dynamoClient, resetClients } from '../../functions/lib/aws/clients.js';
import {
  type DynamoEngine,
  type DynamoHandle,
  dropTable,
  dynamoEngineNamed,
  ensureTable,
  startDynamo,
} from '../../scripts/local/engines/dynamo.js';

export const engine: DynamoEngine = dynamoEngineNamed(process.env.DYNAMO_ENGINE);

let tables = 0;

/**
 * Points the repository at a table of the file's own: on the project's shared engine where it has
 * one (tests/data/sharedEngine.ts), else on an engine the file starts (unit and integration files
 * that use the data layer alone).
 */
export function setupDynamo(): void {
  let own: DynamoHandle | undefined;
  let dir = '';
  let endpoint = '';
  // A name per file and process: two files of a project may run at once on the shared engine.
  const table = `patrol-test-${process.pid}-${++tables}-${Date.now().toString(36)}`;
  beforeAll(async () => {
    const shared = inject('sharedDynamo');
    if (shared) {
      endpoint = shared.endpoint;
    } else {
      dir = mkdtempSync(join(tmpdir(), `patrol-data-${engine}-`));
      own = await startDynamo({ dataDir: dir, engine, inMemory: true });
      endpoint = own.endpoint;
    }
    process.env.DYNAMO_ENDPOINT = endpoint;
    process.env.TABLE_NAME = table;
    process.env.AWS_ACCESS_KEY_ID ??= 'local';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
    resetClients();
    await ensureTable(endpoint, table);
  });
  afterAll(async () => {
    resetClients();
    if (own) {
      await own.stop();
      rmSync(dir, { recursive: true, force: true });
    } else if (endpoint) {
      await dropTable(endpoint, table);
    }
  });
}

/** A DynamoDB call of the process's client: its command, and the partition its key or its put item names (if one does). */
export interface RecordedCall {
  command: string;
  pk?: string;
  /** With `{ units: true }`: the capacity units the call consumed, its indexes' included. */
  units?: number;
}

let recorders = 0;

/** What `work` answers, and the DynamoDB calls it made through the process's client, in order: a cost or a read a test forbids. */
export async function callsDuring<R>(
  work: () => Promise<R>,
  options: { units?: boolean } = {},
): Promise<{ result: R; calls: RecordedCall[] }> {
  const calls: RecordedCall[] = [];
  const name = `callsDuring${++recorders}`;
  dynamoClient().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Key?: { pk?: string }; Item?: { pk?: string }; ReturnConsumedCapacity?: string };
      const pk = input.Key?.pk ?? input.Item?.pk;
      const call: RecordedCall = { command: String(context.commandName), ...(pk === undefined ? {} : { pk }) };
      calls.push(call);
      if (!options.units) return next(args);
      input.ReturnConsumedCapacity = 'INDEXES';
      const out = await next(args);
      const consumed = (out.output as { ConsumedCapacity?: unknown }).ConsumedCapacity;
      const list = (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) as { CapacityUnits?: number }[];
      call.units = list.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      return out;
    },
    { step: 'initialize', name },
  );
  try {
    return { result: await work(), calls };
  } finally {
    dynamoClient().middlewareStack.remove(name);
  }
}
