import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from './credentials.js';
import { startDynamo } from './dynamo.js';

const dir = mkdtempSync(join(tmpdir(), 'patrol-dynalite-signals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the dynalite child', () => {
  it('keeps serving through Ctrl-C and a signal to the process group, and stops when the stack stops it', async () => {
    const handle = await startDynamo({ dataDir: dir, engine: 'dynalite' });
    const client = new DynamoDBClient({
      region: 'us-east-1',
      endpoint: handle.endpoint,
      credentials: LOCAL_CREDENTIALS,
    });
    try {
      // What a terminal's Ctrl-C or `timeout` sends to every process of the group: the stack is
      // still draining its running work, which needs the engine.
      process.kill(handle.pid as number, 'SIGINT');
      process.kill(handle.pid as number, 'SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      await expect(client.send(new ListTablesCommand({}))).resolves.toBeDefined();
    } finally {
      client.destroy();
      await handle.stop();
    }
    expect(() => process.kill(handle.pid as number, 0)).toThrow();
  });
});
