import { SQSClient } from '@aws-sdk/client-sqs';
import type { LambdaDef } from '../../functions/registry.js';
import { startQueueConsumer } from './consumer.js';
import { LOCAL_CREDENTIALS } from './engines/credentials.js';
import { lambdaContext } from './lambdaContext.js';
import { loadHandler } from './loadHandler.js';

// One SQS consumer in a process of its own (scripts/local/consumerChild.ts starts it): a Lambda
// that drives a browser holds only the environment its registry `access` grants, never the
// server's JWT secret or admin password. The parent says when to stop; Ctrl-C reaches this
// process too (same process group) and is left to the parent, which drains every consumer.

export interface ConsumerSpec {
  def: LambdaDef;
  queueUrl: string;
  queueArn: string;
  concurrency: number;
  region: string;
  drainMs: number;
}

export type ParentMessage = { type: 'stop' };
export type ChildMessage = { type: 'ready' } | { type: 'stopped'; drained: boolean };

const spec = JSON.parse(process.argv[2] ?? '') as ConsumerSpec;
const t = spec.def.trigger;
if (t.type !== 'sqs') throw new Error(`lambda ${spec.def.name} is not an SQS consumer`);
const send = (m: ChildMessage, then?: () => void) => {
  if (process.connected && process.send) process.send(m, undefined, {}, () => then?.());
  else then?.();
};

process.on('SIGINT', () => {});
const sqs = new SQSClient({ region: spec.region, endpoint: process.env.SQS_ENDPOINT, credentials: LOCAL_CREDENTIALS });
const consumer = startQueueConsumer({
  name: spec.def.name,
  queueUrl: spec.queueUrl,
  queueArn: spec.queueArn,
  batchSize: t.batchSize,
  concurrency: spec.concurrency,
  handler: await loadHandler(spec.def),
  context: () => lambdaContext(spec.def, spec.region),
  sqs,
  region: spec.region,
});

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void consumer.stop(spec.drainMs).then((drained) => {
    sqs.destroy();
    send({ type: 'stopped', drained }, () => process.exit(0));
  });
};
process.on('message', (m: ParentMessage) => {
  if (m?.type === 'stop') stop();
});
// A parent that died leaves no orphan polling the queue.
process.on('disconnect', stop);
process.on('SIGTERM', stop);
send({ type: 'ready' });
