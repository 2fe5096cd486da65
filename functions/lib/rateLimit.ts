import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoClient } from './aws/clients.js';
import { config } from './config.js';

// A fixed-window rate limiter on the main table. Each (rule, key, window) is one item whose
// counter is bumped by a single atomic `ADD` before the caller does the limited work, so a
// burst of parallel calls reserves its slots in order and can never exceed the limit (a read,
// then a later write, would let every parallel call see the same old count).
// `expires_at` lets DynamoDB TTL (the local sweeper locally) drop old windows.

export interface RateLimitRule {
  /** Names the limit, e.g. 'captcha-ip'; part of the item key. */
  name: string;
  /** Calls allowed per window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimitOutcome {
  allowed: boolean;
  /** Calls counted in this window, this one included. */
  count: number;
  /** Seconds until the window ends: the Retry-After to send when refused. */
  retryAfterSeconds: number;
}

/** Counts one call of `key` against `rule` and says whether it is within the limit. */
export async function hitRateLimit(rule: RateLimitRule, key: string, now = Date.now()): Promise<RateLimitOutcome> {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const windowEnd = windowStart + windowMs;
  const out = await dynamoClient().send(
    new UpdateCommand({
      TableName: config.tableName,
      Key: { pk: `rate#${rule.name}#${key}#${windowStart}`, sk: 'rate' },
      UpdateExpression: 'ADD #count :one SET expires_at = if_not_exists(expires_at, :expires)',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':one': 1, ':expires': Math.ceil(windowEnd / 1000) },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const count = Number(out.Attributes?.count ?? 1);
  return {
    allowed: count <= rule.limit,
    count,
    retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
  };
}
