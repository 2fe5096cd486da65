// Starts the DynamoDB engine the project asks for (DYNAMO_ENGINE: dynalite by default,
// dynamodb-local in the fidelity project) in a temp dir for one test file, and points the
// repository's client and table at it. Both engines keep their tables in memory: a file never
// reads them back, and on disk every write cost more (DynamoDB Local ~4×; dynalite's LevelDB a
// third of the crash walk's CPU).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { dynamoClient, resetClients } from '../../functions/lib/aws/clients.js';
import { type DynamoEngine, type DynamoHandle, ensureTable, startDynamo } from '../../scripts/local/engines/dynamo.js';

export const engine: DynamoEngine = process.env.DYNAMO_ENGINE === 'dynamodb-local' ? 'dynamodb-local' : 'dynalite';

export function setupDynamo(): void {
  let handle: DynamoHandle | undefined;
  let dir = '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `patrol-data-${engine}-`));
    handle = await startDynamo({ dataDir: dir, engine, inMemory: true });
    process.env.DYNAMO_ENDPOINT = handle.endpoint;
    process.env.TABLE_NAME = 'patrol-test';
    process.env.AWS_ACCESS_KEY_ID ??= 'local';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
    resetClients();
    await ensureTable(handle.endpoint, 'patrol-test');
  });
  afterAll(async () => {
    resetClients();
    await handle?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
}

/** A DynamoDB call of the process's client: its command, and the partition its key names (if it names one). */
export interface RecordedCall {
  command: string;
  pk?: string;
}

let recorders = 0;

/** What `work` answers, and the DynamoDB calls it made through the process's client, in order: a cost or a read a test forbids. */
export async function callsDuring<R>(work: () => Promise<R>): Promise<{ result: R; calls: RecordedCall[] }> {
  const calls: RecordedCall[] = [];
  const name = `callsDuring${++recorders}`;
  dynamoClient().middlewareStack.add(
    (next, context) => async (args) => {
      const pk = (args.input as { Key?: { pk?: string } }).Key?.pk;
      calls.push({ command: String(context.commandName), ...(pk === undefined ? {} : { pk }) });
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    return { result: await work(), calls };
  } finally {
    dynamoClient().middlewareStack.remove(name);
  }
}
