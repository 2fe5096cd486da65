import { Duration } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueDef } from '../../functions/registry.js';

export interface QueuesProps {
  /** The registry's QUEUES (a copy may be passed in tests). */
  defs: readonly QueueDef[];
}

export interface PatrolQueue {
  def: QueueDef;
  queue: Queue;
  deadLetterQueue: Queue;
}

/** One SQS queue per registry entry, each with its own dead-letter queue. */
export class Queues extends Construct {
  readonly byName = new Map<string, PatrolQueue>();

  constructor(scope: Construct, id: string, props: QueuesProps) {
    super(scope, id);
    for (const def of props.defs) {
      if (this.byName.has(def.name)) throw new Error(`Queue '${def.name}' is declared twice in the registry`);
      const deadLetterQueue = new Queue(this, `${def.name}-dlq`, {
        // Dead letters wait for a person; keep them as long as SQS allows.
        retentionPeriod: Duration.days(14),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      const queue = new Queue(this, def.name, {
        visibilityTimeout: Duration.seconds(def.visibilityTimeout),
        retentionPeriod: Duration.days(4),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: def.maxReceiveCount },
      });
      this.byName.set(def.name, { def, queue, deadLetterQueue });
    }
  }

  get(name: string): PatrolQueue {
    const found = this.byName.get(name);
    if (!found) throw new Error(`Queue '${name}' is not declared in the registry's QUEUES`);
    return found;
  }

  /** `CHECK_QUEUE_URL` and friends: the names functions/lib/config.ts reads. */
  urlEnvironment(): Record<string, string> {
    const env: Record<string, string> = {};
    for (const { def, queue } of this.byName.values()) env[`${def.name.toUpperCase()}_QUEUE_URL`] = queue.queueUrl;
    return env;
  }

  /** Enqueue on one queue (the registry's `access.sends`). */
  grantSend(grantee: IGrantable, name: string): void {
    this.get(name).queue.grantSendMessages(grantee);
  }
}
