import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoClient } from '../lib/aws/clients.js';
import { config } from '../lib/config.js';
import { type FailureCounter, THROTTLE } from './throttlePolicy.js';

// Failure counters live in the main table as single items, `throttle#user#{username}` and
// `throttle#ip#{ip}`, changed only by conditional single-item writes, so concurrent Lambdas
// count every failure without a lock. `expires_at` lets DynamoDB TTL drop stale counters;
// TTL is lazy, so readers still check the window themselves.

export type ThrottleKey = `throttle#user#${string}` | `throttle#ip#${string}`;

export const userThrottleKey = (username: string): ThrottleKey => `throttle#user#${username.toLowerCase()}`;
export const ipThrottleKey = (ip: string): ThrottleKey => `throttle#ip#${ip}`;

const SK = 'throttle';
const key = (pk: ThrottleKey) => ({ pk, sk: SK });

export async function readFailures(keys: ThrottleKey[]): Promise<(FailureCounter | undefined)[]> {
  return Promise.all(
    keys.map(async (pk) => {
      const out = await dynamoClient().send(
        new GetCommand({ TableName: config.tableName, Key: key(pk), ConsistentRead: true }),
      );
      return out.Item
        ? { failures: Number(out.Item.failures), window_start: Number(out.Item.window_start) }
        : undefined;
    }),
  );
}

/** Counts one failure and returns the counter after it. */
export async function recordFailure(pk: ThrottleKey, now = Date.now()): Promise<FailureCounter> {
  const cutoff = now - THROTTLE.windowMs;
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      // The usual case: a window is open, add to it.
      const out = await dynamoClient().send(
        new UpdateCommand({
          TableName: config.tableName,
          Key: key(pk),
          UpdateExpression: 'ADD failures :one',
          ConditionExpression: 'window_start > :cutoff',
          ExpressionAttributeValues: { ':one': 1, ':cutoff': cutoff },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { failures: Number(out.Attributes?.failures), window_start: Number(out.Attributes?.window_start) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
    try {
      // No open window: start one, unless another request just did (then add to theirs).
      await dynamoClient().send(
        new PutCommand({
          TableName: config.tableName,
          Item: { ...key(pk), failures: 1, window_start: now, expires_at: Math.ceil((now + THROTTLE.windowMs) / 1000) },
          ConditionExpression: 'attribute_not_exists(pk) OR window_start <= :cutoff',
          ExpressionAttributeValues: { ':cutoff': cutoff },
        }),
      );
      return { failures: 1, window_start: now };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
  throw new Error(`Could not count a failed login for ${pk}`);
}

export async function clearFailures(pk: ThrottleKey): Promise<void> {
  await dynamoClient().send(new DeleteCommand({ TableName: config.tableName, Key: key(pk) }));
}
