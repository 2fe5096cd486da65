import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamoClient } from '../../functions/lib/aws/clients.js';
import { config } from '../../functions/lib/config.js';
import { LAMBDAS, type LambdaDef } from '../../functions/registry.js';
import { type LocalStack, startLocalStack } from './stack.js';

const dataDir = await mkdtemp(join(tmpdir(), 'patrol-stack-'));
let stack: LocalStack | undefined;
afterAll(async () => {
  await stack?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const entry = 'scripts/local/testing/wiringLambda.ts';
const testLambdas: LambdaDef[] = [
  ...LAMBDAS.filter((l) => l.trigger.type === 'http'),
  { name: 'wiring-startup', entry, trigger: { type: 'startup' }, memoryMb: 128, timeoutSeconds: 10, access: {} },
  {
    name: 'wiring-queue',
    entry,
    trigger: { type: 'sqs', queue: 'check', batchSize: 5, concurrency: 1 },
    memoryMb: 128,
    timeoutSeconds: 10,
    access: {},
  },
  {
    name: 'wiring-tick',
    entry,
    trigger: { type: 'schedule', everySeconds: 1 },
    memoryMb: 128,
    timeoutSeconds: 10,
    access: {},
  },
];

async function exists(pk: string): Promise<boolean> {
  const out = await dynamoClient().send(new GetCommand({ TableName: config.tableName, Key: { pk, sk: 'wiring' } }));
  return out.Item !== undefined;
}

describe('startLocalStack runs every Lambda of the registry by its trigger', () => {
  it('invokes startup Lambdas once, feeds queue Lambdas their messages and ticks scheduled ones', async () => {
    stack = await startLocalStack({
      dataDir,
      secondFactor: 'off', // signs in with the password alone (AUTH_SECOND_FACTOR)
      port: 0,
      demo: false,
      quiet: true,
      adminPassword: 'stack-test-1',
      lambdas: testLambdas,
    });

    // The startup invocation ran before start returned.
    expect(await exists('wiring#startup')).toBe(true);
    await expect.poll(() => exists('wiring#message#1'), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => exists('wiring#message#2'), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => exists('wiring#tick'), { timeout: 15_000 }).toBe(true);
    const health = await fetch(`${stack.url}/api/v1/health`);
    expect(health.status).toBe(200);
    expect(stack.env.CHECK_QUEUE_URL).toBeTruthy();
    expect(stack.sandboxSiteUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The sandbox banks: their URL reaches the handlers, and the outbound guard lets them through.
    expect(stack.sandboxBankUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stack.env.SANDBOX_BANK_URL).toBe(stack.sandboxBankUrl);
    expect(stack.env.BANK_PORTAL_KBZ).toBe(`${stack.sandboxBankUrl}/kbz`);
    expect(stack.env.BANK_PORTAL_AYA).toBe(`${stack.sandboxBankUrl}/aya`);
    expect(stack.env.ALLOWED_PRIVATE_HOSTS.split(',')).toContain(new URL(stack.sandboxBankUrl ?? '').host);
    const kbz = await fetch(`${stack.sandboxBankUrl}/kbz/api/v1/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ userId: 'kbz.demo', password: 'sandbox123' }),
    });
    expect(((await kbz.json()) as { responseCode: string }).responseCode).toBe('0000');
  }, 60_000);
});
