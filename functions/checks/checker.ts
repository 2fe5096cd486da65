import type { SQSRecord } from 'aws-lambda';
import { sqsRecordHandler } from '../lib/queue/sqsRecordHandler.js';
import { CheckMessage } from '../../shared/schemas/checkMessage.js';
import { inCheckerSlot } from './checkerSlots.js';
import { runSubtask } from './runSubtask.js';

/**
 * The checker Lambda: one subtask per message, in one of the configured checker slots. The
 * message id names the delivery, so a second delivery of the same message cannot finish the
 * subtask a second time.
 */
export const handler = sqsRecordHandler(CheckMessage, (body: CheckMessage, record: SQSRecord) =>
  inCheckerSlot(body, record.messageId, (freeSlot) => runSubtask(body, record.messageId, { onBrowserDone: freeSlot })),
);
