import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { RunStatus } from '../../shared/enums.js';
import { ConfigBounds } from '../../shared/schemas/systemConfig.js';
import { kit, uniqueName } from '../helpers/authKit.js';

// The super config's checker concurrency is a live limit: while that many checks hold the
// checker's slots, a new check waits on the queue (it is neither run nor failed), and it runs
// as soon as a slot is given back.

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
let token: string;

const dynamo = DynamoDBDocumentClient.from(
  new DynamoDBClient({
    region: stack.env.AWS_REGION,
    endpoint: stack.env.DYNAMO_ENDPOINT,
    credentials: { accessKeyId: stack.env.AWS_ACCESS_KEY_ID, secretAccessKey: stack.env.AWS_SECRET_ACCESS_KEY },
  }),
);
/** Every slot the limit can ever reach, so the test holds them whatever the configured number. */
const slots = Array.from({ length: ConfigBounds.checkerConcurrency.max }, (_, i) => ({
  pk: 'slot#checker',
  sk: String(i),
}));

async function writeSlots(requests: Record<string, unknown>[]) {
  for (let i = 0; i < requests.length; i += 25) {
    await dynamo.send(new BatchWriteCommand({ RequestItems: { [stack.env.TABLE_NAME]: requests.slice(i, i + 25) } }));
  }
}
/** Other checks' slots are taken over too: the lease is short, so a failed test frees them soon. */
const holdAllSlots = () =>
  writeSlots(
    slots.map((key) => ({ PutRequest: { Item: { ...key, holder: 'test', lease_until: Date.now() + 40_000 } } })),
  );
const releaseAllSlots = () => writeSlots(slots.map((key) => ({ DeleteRequest: { Key: key } })));

beforeAll(async () => {
  token = await k.admin();
});
afterAll(async () => {
  await releaseAllSlots();
  dynamo.destroy();
  k.destroy();
});

const subtasksOf = async (operationId: number) =>
  (await client.get(`/api/v1/check/subtasks?operation_id==-${operationId}`, { token })).body.data.result as {
    status: number;
  }[];

it('keeps a check waiting while every checker slot is held, and runs it once one is free', async () => {
  const site = await client.post('/api/v1/sites', {
    token,
    body: {
      name: uniqueName('Slots '),
      url: stack.env.SANDBOX_SITE_URL,
      accounts: [{ user: 'agent01', pwd: 'sandbox123' }],
    },
  });
  expect(site.status, JSON.stringify(site.body)).toBe(200);

  await holdAllSlots();
  const op = await client.post(`/api/v1/sites/${site.body.data.id}/check`, {
    token,
    body: { points: [{ point: 1, modes: [1] }] },
  });
  expect(op.status, JSON.stringify(op.body)).toBe(200);

  // Long enough for the consumer to receive the message and find no slot at least once.
  await new Promise((r) => setTimeout(r, 8_000));
  const waiting = await subtasksOf(op.body.data.id);
  expect(waiting.length).toBeGreaterThan(0);
  expect(waiting.every((s) => s.status === RunStatus.values.Pending)).toBe(true);

  await releaseAllSlots();
  const until = Date.now() + 90_000;
  let subs = waiting;
  while (Date.now() < until) {
    subs = await subtasksOf(op.body.data.id);
    if (subs.every((s) => s.status === RunStatus.values.Done || s.status === RunStatus.values.Failed)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  expect(subs.map((s) => s.status)).toEqual(subs.map(() => RunStatus.values.Done));
});
