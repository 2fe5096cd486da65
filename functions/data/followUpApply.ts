import { FollowUpMessage } from '../../shared/schemas/followUpMessage.js';
import { applyHandedOff } from '../lib/db/handOff.js';
import { sqsRecordHandler } from '../lib/queue/sqsRecordHandler.js';
import './followUpKinds.js';

/**
 * Applies the follow-ups a writer handed off (lib/db/handOff.ts): one row's pending entries per
 * message. Rows are independent, so a batch's messages run at once; two for the same row take turns.
 */
export const handler = sqsRecordHandler(FollowUpMessage, (message: FollowUpMessage) => applyHandedOff(message), {
  serialBy: (message) => message.pk,
});
