import type { Context, SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../logger.js';

export type ProcessRecord<T> = (body: T, record: SQSRecord) => Promise<void>;

/**
 * An SQS Lambda handler that processes each record on its own and reports the ones that threw
 * in `batchItemFailures` (the event source must enable ReportBatchItemFailures). Report per
 * message, or SQS re-runs the whole batch and re-checks sites that already passed.
 * A body that is not JSON fails like a throwing record, so it ends in the dead-letter queue
 * after maxReceiveCount where it can be looked at.
 * Records run one after another unless `parallel`: a batch of Chromium checks at once would
 * compete for the same cores.
 */
export function sqsRecordHandler<T = unknown>(processRecord: ProcessRecord<T>, opts: { parallel?: boolean } = {}) {
  const processOne = async (record: SQSRecord): Promise<SQSBatchItemFailure | undefined> => {
    try {
      await processRecord(JSON.parse(record.body) as T, record);
      return undefined;
    } catch (error) {
      logger.error('queue message failed', {
        messageId: record.messageId,
        receiveCount: record.attributes?.ApproximateReceiveCount,
        error: error as Error,
      });
      return { itemIdentifier: record.messageId };
    }
  };
  return async (event: SQSEvent, _context?: Context): Promise<SQSBatchResponse> => {
    let results: (SQSBatchItemFailure | undefined)[];
    if (opts.parallel) results = await Promise.all(event.Records.map(processOne));
    else {
      results = [];
      for (const record of event.Records) results.push(await processOne(record));
    }
    return { batchItemFailures: results.filter((f): f is SQSBatchItemFailure => f !== undefined) };
  };
}
