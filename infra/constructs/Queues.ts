import { Duration } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueDef } from '../../functions/registry.js';

export interface QueuesProps {
  /** The registry's QUEUES (a copy may be passed in tests). */
  defs: readonly QueueDef[];
}

/**
 * Dead-letter queues of work that no registry queue carries: what EventBridge or Lambda could not
 * deliver or finish. Each has its own alarm (Alarms) and a runbook line in docs/deploy.md.
 */
export const FAILURE_QUEUES = {
  /** Events the minute rules and the auto-check schedules could not deliver to their function. */
  scheduleDeliveries: 'Schedule and rule deliveries that EventBridge gave up on',
  /** Asynchronous invocations (rules, schedules, an operator's Event invoke) that failed every retry. */
  asyncInvocations: 'Asynchronous Lambda invocations that failed every retry',
  /** Batches of the table stream the expiry handler failed on every retry. */
  streamBatches: 'Table stream batches the expiry handler failed on every retry',
} as const;
export type FailureQueueName = keyof typeof FAILURE_QUEUES;

export interface PatrolQueue {
  def: QueueDef;
  queue: Queue;
  deadLetterQueue: Queue;
}

/** One SQS queue per registry entry, each with its own dead-letter queue. */
export class Queues extends Construct {
  readonly byName = new Map<string, PatrolQueue>();
  /** The dead-letter queues of FAILURE_QUEUES. */
  readonly failures: Readonly<Record<FailureQueueName, Queue>>;

  constructor(scope: Construct, id: string, props: QueuesProps) {
    super(scope, id);
    for (const def of props.defs) {
      if (this.byName.has(def.name)) throw new Error(`Queue '${def.name}' is declared twice in the registry`);
      const deadLetterQueue = deadLetters(this, `${def.name}-dlq`);
      const queue = new Queue(this, def.name, {
        visibilityTimeout: Duration.seconds(def.visibilityTimeout),
        retentionPeriod: Duration.days(4),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: def.maxReceiveCount },
      });
      this.byName.set(def.name, { def, queue, deadLetterQueue });
    }
    this.failures = {
      scheduleDeliveries: deadLetters(this, 'schedule-deliveries-dlq'),
      asyncInvocations: deadLetters(this, 'async-invocations-dlq'),
      streamBatches: deadLetters(this, 'stream-batches-dlq'),
    };
  }

  /** Every dead-letter queue with what lands in it: the registry queues' and the failure queues. */
  deadLetterQueues(): { name: string; what: string; queue: Queue }[] {
    return [
      ...[...this.byName.values()].map(({ def, deadLetterQueue }) => ({
        name: `${def.name}-dlq`,
        what: `Messages of the ${def.name} queue that failed ${def.maxReceiveCount} times`,
        queue: deadLetterQueue,
      })),
      ...Object.entries(FAILURE_QUEUES).map(([name, what]) => ({
        name,
        what,
        queue: this.failures[name as FailureQueueName],
      })),
    ];
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

  /** Read every queue's attributes, its approximate depth among them (the registry's `access.queueDepth`). */
  grantDepthRead(grantee: IGrantable): void {
    for (const { queue } of this.byName.values()) queue.grant(grantee, 'sqs:GetQueueAttributes');
  }
}

/** Dead letters wait for a person: kept as long as SQS allows. */
function deadLetters(scope: Construct, id: string): Queue {
  return new Queue(scope, id, {
    retentionPeriod: Duration.days(14),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
}
