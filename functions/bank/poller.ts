import { sqsRecordHandler } from '../lib/queue/sqsRecordHandler.js';
import { runDuePoll } from './pollDue.js';
import { PollMessage } from './pollMessage.js';
import { bankRuntime } from './runtime.js';

/**
 * Consumer of the bank queue: one poll per message, the batch's polls at once (they wait on the
 * bank and the table, not on the CPU). A failed bank call is recorded on the account, not thrown;
 * only a storage failure fails the message (SQS delivers it again; a late one is dropped).
 */
export const handler = sqsRecordHandler(
  PollMessage,
  async (message) => {
    await runDuePoll(bankRuntime(), message);
  },
  { parallel: true },
);
