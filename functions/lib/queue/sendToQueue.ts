import { SendMessageBatchCommand, type SendMessageBatchRequestEntry } from '@aws-sdk/client-sqs';
import { sqsClient } from '../aws/clients.js';
import { config } from '../config.js';
import type { QueueDef } from '../../registry.js';

/** SQS takes at most 10 messages and 256 KiB per SendMessageBatch. */
const MAX_BATCH_ENTRIES = 10;
const MAX_BATCH_BYTES = 256 * 1024;
/** Entries SQS reports failed (e.g. throttled) are sent again this many times. */
const RETRIES = 2;

export class QueueSendError extends Error {
  override name = 'QueueSendError';
  constructor(
    readonly queue: QueueDef['name'],
    readonly failed: { index: number; code?: string; message?: string }[],
  ) {
    super(`${failed.length} message(s) could not be sent to the ${queue} queue: ${failed[0]?.code ?? 'unknown'}`);
  }
}

function chunks(entries: SendMessageBatchRequestEntry[]): SendMessageBatchRequestEntry[][] {
  const out: SendMessageBatchRequestEntry[][] = [];
  let current: SendMessageBatchRequestEntry[] = [];
  let bytes = 0;
  for (const e of entries) {
    const size = Buffer.byteLength(e.MessageBody ?? '', 'utf8');
    if (current.length && (current.length === MAX_BATCH_ENTRIES || bytes + size > MAX_BATCH_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(e);
    bytes += size;
  }
  if (current.length) out.push(current);
  return out;
}

/**
 * Sends each body as one JSON message to a queue of the registry, in as few batch calls as
 * SQS allows. Returns the message ids in the order of `bodies`; throws QueueSendError if
 * some could not be sent after retries (the caller's state must say the work is still pending).
 */
export async function sendToQueue(
  queue: QueueDef['name'],
  bodies: object[],
  opts: { delaySeconds?: number } = {},
): Promise<string[]> {
  const queueUrl = config.queueUrl(queue);
  const ids: string[] = new Array(bodies.length);
  let pending: SendMessageBatchRequestEntry[] = bodies.map((body, index) => ({
    Id: String(index),
    MessageBody: JSON.stringify(body),
    ...(opts.delaySeconds ? { DelaySeconds: opts.delaySeconds } : {}),
  }));
  let failures: { index: number; code?: string; message?: string }[] = [];
  for (let attempt = 0; attempt <= RETRIES && pending.length; attempt++) {
    failures = [];
    const retry: SendMessageBatchRequestEntry[] = [];
    for (const batch of chunks(pending)) {
      const out = await sqsClient().send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: batch }));
      for (const ok of out.Successful ?? []) ids[Number(ok.Id)] = ok.MessageId as string;
      for (const f of out.Failed ?? []) {
        failures.push({ index: Number(f.Id), code: f.Code, message: f.Message });
        // A sender fault (bad request) fails the same way again; only server faults are retried.
        if (!f.SenderFault) retry.push(batch.find((e) => e.Id === f.Id) as SendMessageBatchRequestEntry);
      }
    }
    if (failures.length > retry.length) break;
    pending = retry;
  }
  if (failures.length) throw new QueueSendError(queue, failures);
  return ids;
}
