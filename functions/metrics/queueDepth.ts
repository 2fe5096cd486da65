// Queue depth for /metrics (issue 46 item 3): per queue of the registry, the messages waiting and
// those received and not yet deleted (in flight), from SQS's approximate counts (one
// GetQueueAttributes call a queue, fauxqs locally). Read by the dashboard's refresher only: it
// alone is granted `sqs:GetQueueAttributes` (registry `access.queueDepth`); a scrape reads the stored
// figures, never a queue.
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { sqsClient } from '../lib/aws/clients.js';
import { config } from '../lib/config.js';
import { QUEUES } from '../registry.js';

export interface QueueDepth {
  queue: string;
  visible: number;
  in_flight: number;
}

/** Every queue's depth now; a queue whose read failed is left out (the others still count). */
export async function readQueueDepths(): Promise<{ depths: QueueDepth[]; failed: string[] }> {
  const read = await Promise.all(
    QUEUES.map(async ({ name }): Promise<QueueDepth | string> => {
      try {
        const out = await sqsClient().send(
          new GetQueueAttributesCommand({
            QueueUrl: config.queueUrl(name),
            AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
          }),
        );
        return {
          queue: name,
          visible: Number(out.Attributes?.ApproximateNumberOfMessages ?? 0),
          in_flight: Number(out.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0),
        };
      } catch {
        return name;
      }
    }),
  );
  return {
    depths: read.filter((r): r is QueueDepth => typeof r !== 'string'),
    failed: read.filter((r): r is string => typeof r === 'string'),
  };
}
