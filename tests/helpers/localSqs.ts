// One local SQS engine (fauxqs, as `npm start` runs it) for a test file: started before its tests
// with one queue, the handlers' environment pointed at it, everything undone after them.
import { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll } from 'vitest';
import { resetClients } from '../../functions/lib/aws/clients.js';
import type { QueueDef } from '../../functions/registry.js';
import { LOCAL_CREDENTIALS } from '../../scripts/local/engines/credentials.js';
import { type SqsEngine, startSqs } from '../../scripts/local/engines/sqs.js';

const region = 'us-east-1';

export interface LocalQueue extends QueueDef {
  /** The environment variable the handlers read the queue URL from, e.g. CHECK_QUEUE_URL. */
  urlEnv: string;
}

/** The engine and a client on it; read them inside tests (they exist once beforeAll has run). */
export function localSqsFixture(queue: LocalQueue): { readonly engine: SqsEngine; readonly sqs: SQSClient } {
  let engine: SqsEngine | undefined;
  let sqs: SQSClient | undefined;
  const savedEnv = { ...process.env };
  beforeAll(async () => {
    const { urlEnv, ...spec } = queue;
    engine = await startSqs({ queues: [spec], region });
    Object.assign(process.env, {
      AWS_REGION: region,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      SQS_ENDPOINT: engine.endpoint,
      [urlEnv]: engine.queues[0].url,
    });
    resetClients();
    sqs = new SQSClient({ region, endpoint: engine.endpoint, credentials: LOCAL_CREDENTIALS });
  });
  afterAll(async () => {
    sqs?.destroy();
    await engine?.stop();
    process.env = savedEnv;
    resetClients();
  });
  const started = <V>(v: V | undefined): V => {
    if (v === undefined) throw new Error('localSqsFixture: the engine starts in beforeAll');
    return v;
  };
  return {
    get engine() {
      return started(engine);
    },
    get sqs() {
      return started(sqs);
    },
  };
}
