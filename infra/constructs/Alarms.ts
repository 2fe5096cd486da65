import { Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE, type PatrolMetricName } from '../../functions/lib/metrics.js';
import type { QueueDef } from '../../functions/registry.js';
import type { Functions } from './Functions.js';
import type { Queues } from './Queues.js';

/**
 * Each kind of alarm, by the key its name carries (`patrol-<stage>-<kind>[-<subject>]`). The
 * deploy guide's runbook has one line per key (tests/infra/alarms.test.ts holds them together).
 */
export const ALARM_KINDS = [
  'queue-age',
  'dead-letters',
  'function-errors',
  'function-throttles',
  'stream-iterator-age',
  'dynamodb-throttles',
  'api-5xx',
  'waf-blocked',
  'bank-poll-lag',
  'subtasks-failed',
  'webhook-deliveries-failed',
  'telegram-sends-failed',
  'bank-accounts-stale',
] as const;
export type AlarmKind = (typeof ALARM_KINDS)[number];

/** Seconds a message may wait on a work queue before someone should look. */
export const OLDEST_MESSAGE_ALARM_S: Record<QueueDef['name'], number> = {
  // A batch check of many sites queues for a while by design; an hour means the checkers stopped.
  check: 3600,
  // Deliveries wait at most a flood wait or a retry's delay.
  notify: 900,
  // A poll is due within a minute of its message (delays included); later ones are dropped anyway.
  bank: 300,
  // A handed-off end waits seconds at most; at 5 minutes the applier is down and the sweeper (every
  // minute) is doing its work: tasks still end, a minute late.
  followUp: 300,
};

/** The stream handler must keep up with TTL deletes; this far behind, counters drift for hours. */
export const STREAM_ITERATOR_AGE_ALARM_MS = 15 * 60_000;

/** The product's own health: metric, statistic, threshold over how many 5-minute periods. */
export const PRODUCT_ALARMS: Record<
  PatrolMetricName,
  { kind: AlarmKind; statistic: string; threshold: number; periods: number; what: string }
> = {
  BankPollLag: {
    kind: 'bank-poll-lag',
    statistic: 'p95',
    threshold: 10_000,
    periods: 3,
    what: 'Bank polls start more than 10 s after their due second (p95 for 15 minutes)',
  },
  SubtasksFailed: {
    kind: 'subtasks-failed',
    statistic: 'Sum',
    threshold: 20,
    periods: 1,
    what: 'At least 20 check subtasks failed in 5 minutes',
  },
  WebhookDeliveriesFailed: {
    kind: 'webhook-deliveries-failed',
    statistic: 'Sum',
    threshold: 1,
    periods: 1,
    what: 'A bank webhook delivery failed for good',
  },
  TelegramSendsFailed: {
    kind: 'telegram-sends-failed',
    statistic: 'Sum',
    threshold: 1,
    periods: 1,
    what: 'A Telegram message could not be sent',
  },
  BankAccountsStale: {
    kind: 'bank-accounts-stale',
    statistic: 'Sum',
    threshold: 1,
    periods: 1,
    what: 'A bank account turned stale (its polls failed for three intervals)',
  },
};

const PERIOD = Duration.minutes(5);

/** A product metric of this stage (functions/lib/metrics.ts writes them with the `stage` dimension). */
export function productMetric(stage: string, name: PatrolMetricName, statistic: string): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { stage },
    statistic,
    period: PERIOD,
  });
}

/** DynamoDB throttling of the table and its indexes, reads and writes together. */
export function tableThrottles(table: ITable): IMetric {
  return new MathExpression({
    label: 'Throttled events',
    expression: 'r + w',
    usingMetrics: {
      r: table.metric('ReadThrottleEvents', { statistic: 'Sum', period: PERIOD }),
      w: table.metric('WriteThrottleEvents', { statistic: 'Sum', period: PERIOD }),
    },
    period: PERIOD,
  });
}

export interface AlarmsProps {
  stage: string;
  queues: Queues;
  functions: Functions;
  httpApi: HttpApi;
  table: ITable;
  /** The registry name of the table's stream consumer, whose iterator age is watched. */
  streamFunction?: string;
  /** Subscribed to the alarm topic (stage `alarmEmail`). */
  email: string;
}

/**
 * What an operator must hear about, by e-mail through an SNS topic that refuses plain HTTP. The
 * WAF's alarm lives in the edge stack (us-east-1, where CloudFront's WAF metrics are).
 */
export class Alarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  /** Each alarm by `<kind>[-<subject>]`, e.g. `function-errors-api` (CodeDeploy rolls back on it). */
  readonly byKey = new Map<string, Alarm>();
  private readonly action: SnsAction;
  private readonly stage: string;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    this.stage = props.stage;
    this.topic = alarmTopic(this, props.email);
    this.action = new SnsAction(this.topic);

    for (const { def, queue } of props.queues.byName.values()) {
      this.add('queue-age', def.name, {
        what: `A message waited more than ${OLDEST_MESSAGE_ALARM_S[def.name]} s on the ${def.name} queue`,
        metric: queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum' }),
        threshold: OLDEST_MESSAGE_ALARM_S[def.name],
        periods: 1,
      });
    }
    for (const { name, what, queue } of props.queues.deadLetterQueues()) {
      this.add('dead-letters', name, {
        what,
        metric: queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
        threshold: 1,
        periods: 1,
      });
    }
    for (const [name, fn] of props.functions.byName) {
      this.add('function-errors', name, {
        what: `The ${name} function threw or timed out`,
        metric: fn.metricErrors({ period: PERIOD, statistic: 'Sum' }),
        threshold: 1,
        periods: 1,
      });
      this.add('function-throttles', name, {
        what: `Lambda throttled the ${name} function (account or reserved concurrency)`,
        metric: fn.metricThrottles({ period: PERIOD, statistic: 'Sum' }),
        threshold: 1,
        periods: 1,
      });
    }
    if (props.streamFunction) {
      this.add('stream-iterator-age', props.streamFunction, {
        what: `The table stream's oldest unprocessed record is over ${STREAM_ITERATOR_AGE_ALARM_MS / 60_000} minutes old`,
        metric: props.functions
          .get(props.streamFunction)
          .metric('IteratorAge', { period: PERIOD, statistic: 'Maximum' }),
        threshold: STREAM_ITERATOR_AGE_ALARM_MS,
        periods: 1,
      });
    }
    this.add('dynamodb-throttles', undefined, {
      what: 'DynamoDB throttled reads or writes of the table',
      metric: tableThrottles(props.table),
      threshold: 1,
      periods: 1,
    });
    this.add('api-5xx', undefined, {
      what: 'The API answered 5xx at least 5 times in 5 minutes',
      metric: props.httpApi.metricServerError({ period: PERIOD, statistic: 'Sum' }),
      threshold: 5,
      periods: 1,
    });
    for (const [name, rule] of Object.entries(PRODUCT_ALARMS) as [
      PatrolMetricName,
      (typeof PRODUCT_ALARMS)[PatrolMetricName],
    ][]) {
      this.add(rule.kind, undefined, {
        what: rule.what,
        metric: productMetric(props.stage, name, rule.statistic),
        threshold: rule.threshold,
        periods: rule.periods,
      });
    }
  }

  private add(
    kind: AlarmKind,
    subject: string | undefined,
    spec: { what: string; metric: IMetric; threshold: number; periods: number },
  ): void {
    const name = [kind, subject].filter(Boolean).join('-');
    const alarm = new Alarm(this, name, {
      // Named, unlike most resources here: the name is the e-mail's subject, and the runbook
      // (docs/deploy.md) is looked up by its kind.
      alarmName: `patrol-${this.stage}-${name}`,
      alarmDescription: `${spec.what}. Runbook: docs/deploy.md, "Alarms", ${kind}.`,
      metric: spec.metric,
      threshold: spec.threshold,
      evaluationPeriods: spec.periods,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      // No data is no trouble: an idle queue or a function that did not run has no datapoints.
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(this.action);
    alarm.addOkAction(this.action);
    this.alarms.push(alarm);
    this.byKey.set(name, alarm);
  }
}

/**
 * The topic alarms publish to: TLS only, one e-mail subscription, and a dead-letter queue for
 * what SNS could not deliver to it. Used by both stacks of a stage (the edge stack's WAF alarm).
 */
export function alarmTopic(scope: Construct, email: string): Topic {
  const topic = new Topic(scope, 'Topic', {
    displayName: `Patrol ${Stack.of(scope).stackName} alarms`,
    enforceSSL: true,
  });
  const undelivered = new Queue(scope, 'UndeliveredAlarms', {
    retentionPeriod: Duration.days(14),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
  });
  topic.addSubscription(new EmailSubscription(email, { deadLetterQueue: undelivered }));
  return topic;
}
