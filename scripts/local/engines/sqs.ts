import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  QueueNameExists,
  SetQueueAttributesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { QueueDef } from '../../../functions/registry.js';
import { LOCAL_CREDENTIALS } from './credentials.js';
import { installDueTimers } from './fauxqsTimers.js';

export interface QueueHandle {
  name: QueueDef['name'];
  url: string;
  arn: string;
  dlqUrl: string;
  dlqArn: string;
}

export interface SqsEngine {
  endpoint: string;
  queues: QueueHandle[];
  stop(): Promise<void>;
}

/**
 * fauxqs (SQS) inside this process, bound to loopback only: its own `startFauxqs` listens on
 * 0.0.0.0, which would expose the queues to the network.
 */
export async function startSqs(opts: {
  queues: readonly QueueDef[];
  region: string;
  port?: number;
}): Promise<SqsEngine> {
  // Loaded here, not at the top: the import takes a moment that the DynamoDB child can use to boot.
  const { buildApp } = await import('fauxqs');
  await installDueTimers();
  const app = buildApp({ logger: false, defaultRegion: opts.region });
  await app.listen({ port: opts.port ?? 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('fauxqs did not report its port');
  const endpoint = `http://127.0.0.1:${address.port}`;
  const sqs = new SQSClient({ region: opts.region, endpoint, credentials: LOCAL_CREDENTIALS });
  try {
    const queues: QueueHandle[] = [];
    for (const def of opts.queues) queues.push(await ensureQueue(sqs, def));
    return { endpoint, queues, stop: () => app.close() };
  } catch (error) {
    await app.close();
    throw error;
  } finally {
    sqs.destroy();
  }
}

/** Creates a queue, or brings an existing one to the given attributes. */
async function createOrUpdate(sqs: SQSClient, name: string, attributes: Record<string, string>): Promise<string> {
  let url: string;
  try {
    url = (await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }))).QueueUrl as string;
  } catch (error) {
    // SQS refuses CreateQueue for an existing queue whose attributes differ.
    if (!(error instanceof QueueNameExists)) throw error;
    url = (await sqs.send(new CreateQueueCommand({ QueueName: name }))).QueueUrl as string;
    await sqs.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: attributes }));
  }
  return url;
}

async function queueArn(sqs: SQSClient, url: string): Promise<string> {
  const out = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }));
  return out.Attributes?.QueueArn as string;
}

/** The queue of a registry entry with its dead-letter queue, the way the CDK app declares them. */
export async function ensureQueue(sqs: SQSClient, def: QueueDef): Promise<QueueHandle> {
  const dlqUrl = await createOrUpdate(sqs, `${def.name}-dlq`, { MessageRetentionPeriod: String(14 * 24 * 3600) });
  const dlqArn = await queueArn(sqs, dlqUrl);
  const url = await createOrUpdate(sqs, def.name, {
    VisibilityTimeout: String(def.visibilityTimeout),
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: String(def.maxReceiveCount) }),
  });
  return { name: def.name, url, arn: await queueArn(sqs, url), dlqUrl, dlqArn };
}
