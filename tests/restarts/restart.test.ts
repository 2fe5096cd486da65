import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetQueueUrlCommand } from '@aws-sdk/client-sqs';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamoClient, s3Client, sqsClient } from '../../functions/lib/aws/clients.js';
import { config } from '../../functions/lib/config.js';
import { type LocalStack, startLocalStack } from '../../scripts/local/stack.js';
import { api, login } from '../helpers/api.js';

// Its own stack in this worker process, apart from the shared one: it is stopped and restarted.
const dataDir = await mkdtemp(join(tmpdir(), 'patrol-restart-'));
let stack: LocalStack | undefined;
afterAll(async () => {
  await stack?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const start = () => startLocalStack({ dataDir, port: 0, demo: false, quiet: true, secondFactor: 'off' });

describe('a restart on the same DATA_DIR', () => {
  it('keeps table items, stored objects, keys and the admin user, and recreates the queues', async () => {
    stack = await start();
    const password = stack.adminPassword as string;
    expect(stack.adminPasswordGenerated).toBe(true);
    expect((await readFile(join(dataDir, 'admin-password.txt'), 'utf8')).trim()).toBe(password);
    const token = await login(stack.url, 'admin', password);
    const jwtKey = await readFile(join(dataDir, 'jwt.key'), 'utf8');
    await dynamoClient().send(
      new PutCommand({ TableName: config.tableName, Item: { pk: 'restart-test#1', sk: 'item', note: 'kept' } }),
    );
    await s3Client().send(
      new PutObjectCommand({ Bucket: config.videoBucket, Key: 'restart/a.txt', Body: 'video bytes' }),
    );
    await stack.stop();

    stack = await start();
    expect(stack.adminPassword).toBeUndefined();
    expect(stack.adminPasswordGenerated).toBe(false);
    const item = await dynamoClient().send(
      new GetCommand({ TableName: config.tableName, Key: { pk: 'restart-test#1', sk: 'item' } }),
    );
    expect(item.Item?.note).toBe('kept');
    const object = await s3Client().send(new GetObjectCommand({ Bucket: config.videoBucket, Key: 'restart/a.txt' }));
    expect(await object.Body?.transformToString()).toBe('video bytes');
    expect(await readFile(join(dataDir, 'jwt.key'), 'utf8')).toBe(jwtKey);
    expect((await readFile(join(dataDir, 'admin-password.txt'), 'utf8')).trim()).toBe(password);
    // A session from before the restart is still good: same key, same user.
    const me = await api(stack.url).get('/api/v1/info', { token });
    expect(me).toMatchObject({ status: 200, body: { data: { username: 'admin', role: 'super' } } });
    const queue = await sqsClient().send(new GetQueueUrlCommand({ QueueName: 'check' }));
    expect(queue.QueueUrl).toBeTruthy();
  });
});
