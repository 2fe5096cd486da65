import { DeleteMessageBatchCommand, type Message, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { setMaxListeners } from 'node:events';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { sqsEvent } from './events.js';
import type { LambdaHandler } from './loadHandler.js';

export interface QueueConsumerOptions {
  /** Lambda name, for log lines. */
  name: string;
  queueUrl: string;
  queueArn: string;
  /** Messages per invocation; SQS hands out at most 10 per receive. */
  batchSize: number;
  /** Invocations running at once, like the reserved concurrency of the event source. */
  concurrency: number;
  /** Its result is read as an SQSBatchResponse (ReportBatchItemFailures); nothing means all succeeded. */
  handler: LambdaHandler<SQSEvent, unknown>;
  context: () => Context;
  sqs: SQSClient;
  region: string;
  /**
   * Long-poll wait (default 20 s, SQS's longest): a message ends the wait at once, and stop() aborts
   * the waiting receive. Each empty answer costs this process and fauxqs a request: at 5 s the
   * stack's ~25 idle workers (the bank poller's 20) spent ~1 CPU s a minute on them, before each
   * consumer had one receiver.
   */
  waitTimeSeconds?: number;
  onError?: (message: string, error: unknown) => void;
}

export interface QueueConsumer {
  /** Invocations running now. */
  readonly inFlight: number;
  /** Stops polling and waits up to `timeoutMs` for running invocations; resolves false if some were still running. */
  stop(timeoutMs?: number): Promise<boolean>;
}

/**
 * Which messages of a batch to leave on the queue, read the way Lambda reads a response with
 * ReportBatchItemFailures: a malformed failure list fails the whole batch.
 */
export function failedMessageIds(result: unknown, messageIds: string[]): Set<string> {
  if (result === undefined || result === null) return new Set();
  const failures = (result as SQSBatchResponse).batchItemFailures;
  if (failures === undefined || failures === null) return new Set();
  if (!Array.isArray(failures)) return new Set(messageIds);
  const known = new Set(messageIds);
  const failed = new Set<string>();
  for (const f of failures) {
    const id = f?.itemIdentifier;
    if (typeof id !== 'string' || !known.has(id)) return new Set(messageIds);
    failed.add(id);
  }
  return failed;
}

/**
 * The local stand-in for a Lambda SQS event source mapping: long-polls the queue, invokes the
 * handler with a real-shaped batch, deletes what succeeded and leaves the rest to reappear
 * after the visibility timeout (and to go to the dead-letter queue after maxReceiveCount).
 *
 * Like the event source, receiving and invoking are apart: one receiver long-polls and hands each
 * batch to a free invocation slot (`concurrency` of them), waiting for a slot when all are busy.
 * One receiver, not one per slot: fauxqs wakes every waiting long poll when messages arrive, and
 * all but the first then answer empty (the bank bench saw ~5 empty receives per poll's batch with
 * 20 pollers, each an HTTP round trip in this process).
 */
export function startQueueConsumer(opts: QueueConsumerOptions): QueueConsumer {
  const abort = new AbortController();
  const concurrency = Math.max(1, opts.concurrency);
  setMaxListeners(Math.max(10, concurrency + 1), abort.signal);
  const onError = opts.onError ?? ((message, error) => console.error(`[${opts.name}] ${message}`, error));
  let stopped = false;
  let inFlight = 0;
  const running = new Set<Promise<void>>();
  /** Wakes the receiver when a slot frees (or at stop). */
  let slotFreed: (() => void) | undefined;
  const wake = () => {
    const w = slotFreed;
    slotFreed = undefined;
    w?.();
  };

  async function invoke(messages: Message[]): Promise<void> {
    const event = sqsEvent(messages, opts.queueArn, opts.region);
    const ids = event.Records.map((r) => r.messageId);
    let failed: Set<string>;
    try {
      failed = failedMessageIds(await opts.handler(event, opts.context()), ids);
    } catch (error) {
      // A thrown error fails the whole batch, as in Lambda.
      onError(`invocation failed; ${ids.length} message(s) will be retried`, error);
      failed = new Set(ids);
    }
    const done = event.Records.filter((r) => !failed.has(r.messageId));
    if (done.length === 0) return;
    // As in Lambda, the invocation slot is free once the handler has answered: the event source
    // deletes what succeeded apart from it (stop still waits for the delete).
    track(
      (async () => {
        const out = await opts.sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: opts.queueUrl,
            Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
          }),
        );
        if (out.Failed?.length) onError(`${out.Failed.length} processed message(s) could not be deleted`, out.Failed);
      })().catch((error) => onError('could not delete processed messages', error)),
    );
  }

  /** Work that stop waits for (an invocation, or a delete that holds no invocation slot). */
  function track(work: Promise<void>): void {
    const tracked = work.finally(() => running.delete(tracked));
    running.add(tracked);
  }

  function start(messages: Message[]): void {
    inFlight++;
    track(
      invoke(messages)
        .catch((error) => onError('could not settle a batch', error))
        .finally(() => {
          inFlight--;
          wake();
        }),
    );
  }

  async function receive(): Promise<void> {
    while (!stopped) {
      if (inFlight >= concurrency) {
        await new Promise<void>((r) => {
          slotFreed = r;
        });
        continue;
      }
      let messages: Message[];
      try {
        const out = await opts.sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: opts.queueUrl,
            MaxNumberOfMessages: Math.min(Math.max(opts.batchSize, 1), 10),
            WaitTimeSeconds: Math.min(opts.waitTimeSeconds ?? 20, 20),
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: abort.signal },
        );
        messages = out.Messages ?? [];
      } catch (error) {
        if (stopped) return;
        onError('receive failed; retrying in 1 s', error);
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      if (messages.length) start(messages);
    }
  }

  const receiver = receive();

  return {
    get inFlight() {
      return inFlight;
    },
    async stop(timeoutMs = 30_000) {
      stopped = true;
      abort.abort();
      wake();
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        (async () => {
          await receiver;
          // Invocations still running (none start after the receiver ended).
          await Promise.allSettled([...running]);
          return true;
        })(),
        new Promise<boolean>((r) => {
          timer = setTimeout(() => r(false), timeoutMs);
        }),
      ]);
      clearTimeout(timer);
      return finished;
    },
  };
}
