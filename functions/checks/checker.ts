import type { SQSRecord } from 'aws-lambda';
import { sqsRecordHandler } from '../lib/queue/sqsRecordHandler.js';
import { CheckMessage } from '../../shared/schemas/checkMessage.js';
import { runSubtask } from './runSubtask.js';

/**
 * The checker Lambda: one subtask per message. The message id names the delivery, so a second
 * delivery of the same message cannot finish the subtask a second time.
 */
export const handler = sqsRecordHandler(CheckMessage, (body: CheckMessage, record: SQSRecord) =>
  runSubtask(body, record.messageId),
);
