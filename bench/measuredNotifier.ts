// The notifier Lambda exactly as the local stack runs it (functions/notifier.ts),
// wrapped for bench/bankDelivery.bench.ts, which gives the stack this entry in its place:
// - its invocations run inside `delivering`, so the bench tells the DynamoDB calls of a delivery
//   from those of the inbound webhook that records the statements (both run in one process);
// - `settledAt` keeps when each notification's delivery returned (history and statuses written),
//   which is also the bench's progress count, with no reads of the table while it measures.
// Loaded by the stack after it set the environment; the bench imports it only after the start.

import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context, SQSEvent } from 'aws-lambda';
import { handler as notifier } from '../functions/notifier.js';

export const delivering = new AsyncLocalStorage<true>();

/** Notification id → when its (last) invocation returned without a failure for it, ms. */
export const settledAt = new Map<number, number>();

export async function handler(event: SQSEvent, context: Context) {
  const result = await delivering.run(true, () => notifier(event, context));
  const now = Date.now();
  const failed = new Set(result.batchItemFailures.map((f) => f.itemIdentifier));
  for (const record of event.Records) {
    if (failed.has(record.messageId)) continue;
    const id = (JSON.parse(record.body) as { notification_id?: unknown }).notification_id;
    if (typeof id === 'number') settledAt.set(id, now);
  }
  return result;
}
