import type { Context, SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { z } from 'zod';
import { runUntil } from '../invocationDeadline.js';
import { logger } from '../logger.js';

export type ProcessRecord<T> = (body: T, record: SQSRecord) => Promise<void>;

/** A message that is not JSON or not of the queue's schema: retrying cannot fix it. */
export class MalformedMessageError extends Error {
  override name = 'MalformedMessageError';
}

/**
 * Reads a record's body as the queue's message. Only the paths and messages of the schema's
 * complaints are kept, never the values: a message may carry data that must not reach a log.
 */
export function parseMessage<S extends z.ZodType>(schema: S, record: SQSRecord): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(record.body);
  } catch {
    throw new MalformedMessageError(`message ${record.messageId} is not JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(message)'}: ${i.message}`).join('; ');
    throw new MalformedMessageError(`message ${record.messageId} does not match the queue's schema: ${issues}`);
  }
  return parsed.data;
}

/**
 * An SQS Lambda handler that validates each record against the queue's zod schema, processes it
 * on its own and reports the ones that failed in `batchItemFailures` (the event source must
 * enable ReportBatchItemFailures). Report per message, or SQS re-runs the whole batch and
 * re-checks sites that already passed.
 * A malformed message (not JSON, or not of the schema) is logged as such and reported failed
 * like a throwing record, so it ends in the dead-letter queue after maxReceiveCount where it
 * can be looked at; the rest of the batch, and the next batches, go on.
 * Records run one after another unless `parallel`: a batch of Chromium checks at once would
 * compete for the same cores. With `serialBy`, records run at once except those given the same
 * key, which run one after another in the batch's order (e.g. one chat's messages, while webhook
 * deliveries of the same batch go out together).
 */
export function sqsRecordHandler<S extends z.ZodType>(
  schema: S,
  processRecord: ProcessRecord<z.output<S>>,
  opts: { parallel?: boolean; serialBy?: (body: z.output<S>) => string | undefined } = {},
) {
  type Parsed = { body: z.output<S> } | { malformed: MalformedMessageError };
  /** Each record is parsed once: its turn and its processing both read the outcome. */
  const parse = (record: SQSRecord): Parsed => {
    try {
      return { body: parseMessage(schema, record) };
    } catch (error) {
      if (error instanceof MalformedMessageError) return { malformed: error };
      throw error;
    }
  };
  /** The key a record waits its turn under; none: it runs at once with the others. */
  const keyOf = (parsed: Parsed): string | undefined => {
    if (opts.serialBy) return 'body' in parsed ? opts.serialBy(parsed.body) : undefined;
    return opts.parallel ? undefined : 'batch';
  };
  const processOne = async (record: SQSRecord, parsed: Parsed): Promise<SQSBatchItemFailure | undefined> => {
    const context = {
      messageId: record.messageId,
      queue: record.eventSourceARN,
      receiveCount: record.attributes?.ApproximateReceiveCount,
    };
    if ('malformed' in parsed) {
      logger.error('malformed queue message, left for the dead-letter queue', {
        ...context,
        reason: parsed.malformed.message,
      });
      return { itemIdentifier: record.messageId };
    }
    try {
      await processRecord(parsed.body, record);
      return undefined;
    } catch (error) {
      logger.error('queue message failed', { ...context, error: error as Error });
      return { itemIdentifier: record.messageId };
    }
  };
  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    // Code that may wait (a flood wait) knows when this invocation times out.
    const left = context?.getRemainingTimeInMillis?.();
    return left === undefined ? processBatch(event) : runUntil(Date.now() + left, () => processBatch(event));
  };

  async function processBatch(event: SQSEvent): Promise<SQSBatchResponse> {
    const turns = new Map<string, Promise<unknown>>();
    const results = await Promise.all(
      event.Records.map((record) => {
        const parsed = parse(record);
        const key = keyOf(parsed);
        if (key === undefined) return processOne(record, parsed);
        // processOne never rejects, so a chain goes on past a failed record.
        const turn = (turns.get(key) ?? Promise.resolve()).then(() => processOne(record, parsed));
        turns.set(key, turn);
        return turn;
      }),
    );
    return { batchItemFailures: results.filter((f): f is SQSBatchItemFailure => f !== undefined) };
  }
}
