// Starts the DynamoDB engine the project asks for (DYNAMO_ENGINE: dynalite by default,
// dynamodb-local in the fidelity project) in a temp dir for one test file, and points the
// repository's client and table at it. DynamoDB Local keeps its tables in memory: a file never
// reads them back, and on disk every write cost ~4× as much.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { resetClients } from '../../functions/lib/aws/clients.js';
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
