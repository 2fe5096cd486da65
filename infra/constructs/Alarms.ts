import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import type { Functions } from './Functions.js';
import type { Queues } from './Queues.js';

export interface AlarmsProps {
  queues: Queues;
  functions: Functions;
  httpApi: HttpApi;
  /** Subscribed to the alarm topic when set; otherwise subscribe someone after deploy. */
  email?: string;
}

/** What an operator must hear about: a dead letter, a failing function, the API answering 5xx. */
export class Alarms extends Construct {
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', { displayName: 'Patrol alarms' });
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
    const notify = new SnsAction(this.topic);

    for (const { def, deadLetterQueue } of props.queues.byName.values()) {
      new Alarm(this, `${def.name}-dead-letters`, {
        alarmDescription: `Messages of the ${def.name} queue failed ${def.maxReceiveCount} times`,
        metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5) }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }).addAlarmAction(notify);
    }
    for (const [name, fn] of props.functions.byName) {
      new Alarm(this, `${name}-errors`, {
        alarmDescription: `The ${name} function threw or timed out`,
        metric: fn.metricErrors({ period: Duration.minutes(5) }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }).addAlarmAction(notify);
    }
    new Alarm(this, 'api-5xx', {
      alarmDescription: 'The API answered 5xx',
      metric: props.httpApi.metricServerError({ period: Duration.minutes(5) }),
      threshold: 5,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    }).addAlarmAction(notify);
  }
}
