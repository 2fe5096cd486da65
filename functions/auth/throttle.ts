import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoClient } from '../lib/aws/clients.js';
import { config } from '../lib/config.js';
import { keyedRecords } from '../lib/db/keyedRecords.js';
import { type FailureCounter, THROTTLE } from './throttlePolicy.js';

// Attempt counters live in the main table as single items, `throttle#user#{username}`,
// `throttle#ip#{ip}` and `throttle#factor#{user id}`, changed only by conditional single-item writes, so concurrent Lambdas
// count every attempt without a lock: an attempt reserves its slot (and learns its place) in
// the same write, before its password is checked (throttlePolicy.ts). `expires_at` lets
// DynamoDB TTL drop stale counters; TTL is lazy, so readers still check the window themselves.

export type ThrottleKey = `throttle#user#${string}` | `throttle#ip#${string}` | `throttle#factor#${number}`;

export const userThrottleKey = (username: string): ThrottleKey => `throttle#user#${username.toLowerCase()}`;
export const ipThrottleKey = (ip: string): ThrottleKey => `throttle#ip#${ip}`;
/** Wrong second-factor codes of one user (factors.ts), counted apart from the password's failures. */
export const factorThrottleKey = (userId: number): ThrottleKey => `throttle#factor#${userId}`;

/** The counters, keyed by `user#…` / `ip#…` under `throttle#` (the keys written before lib/db named record keys). */
const counters = keyedRecords('throttle', { sk: 'throttle' });
const key = (pk: ThrottleKey) => counters.keyOf(pk.slice('throttle#'.length));

/** Reserves one attempt and returns the counter after it: this attempt's place in the window. */
export async function reserveAttempt(pk: ThrottleKey, now = Date.now()): Promise<FailureCounter> {
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
  throw new Error(`Could not count a login attempt for ${pk}`);
}

export async function clearFailures(pk: ThrottleKey): Promise<void> {
  await dynamoClient().send(new DeleteCommand({ TableName: config.tableName, Key: key(pk) }));
}

/** Gives back an attempt's slot (it was right, or never reached the password); a newer window is left alone. */
export async function releaseAttempt(pk: ThrottleKey, counter: FailureCounter): Promise<void> {
  try {
    await dynamoClient().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: key(pk),
        UpdateExpression: 'ADD failures :minus',
        ConditionExpression: 'window_start = :start AND failures > :zero',
        ExpressionAttributeValues: { ':minus': -1, ':start': counter.window_start, ':zero': 0 },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/**
 * Claims the next password check of a username under attack: one conditional write, so of
 * parallel attempts exactly one wins; the others learn how long to wait (ms).
 */
export async function claimCheckSlot(pk: ThrottleKey, backoffMs: number, now = Date.now()): Promise<number> {
  try {
    await dynamoClient().send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: key(pk),
        UpdateExpression: 'SET next_check_at = :next',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(next_check_at) OR next_check_at <= :now)',
        ExpressionAttributeValues: { ':next': now + backoffMs, ':now': now },
      }),
    );
    return 0;
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
  const out = await dynamoClient().send(
    new GetCommand({ TableName: config.tableName, Key: key(pk), ConsistentRead: true }),
  );
  return Math.max(1, Number(out.Item?.next_check_at ?? now) - now);
}
