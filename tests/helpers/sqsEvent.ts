// SQS events for tests, built by the same function the local runner uses to hand received
// messages to a Lambda (scripts/local/events.ts), so a test's record has the shape a real one has.
import type { SQSEvent } from 'aws-lambda';
import { sqsEvent } from '../../scripts/local/events.js';

export const TEST_QUEUE_ARN = 'arn:aws:sqs:us-east-1:000000000000:check';

/** One record per `[messageId, body]`; a body that is not a string is sent as JSON. */
export function sqsTestEvent(...messages: [id: string, body: unknown][]): SQSEvent {
  return sqsEvent(
    messages.map(([id, body]) => ({
      MessageId: id,
      ReceiptHandle: `rh-${id}`,
      Body: typeof body === 'string' ? body : JSON.stringify(body),
      Attributes: { ApproximateReceiveCount: '1' },
    })),
    TEST_QUEUE_ARN,
    'us-east-1',
  );
}
