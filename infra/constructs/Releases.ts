import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type IAlarm, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { LambdaDeploymentConfig, LambdaDeploymentGroup } from 'aws-cdk-lib/aws-codedeploy';
import { Construct } from 'constructs';
import type { Functions } from './Functions.js';

/**
 * The functions whose releases shift by canary in a stage with `canary`: what users and checks
 * run through. The others move their `live` alias at once in every stage.
 */
export const CANARY_FUNCTIONS = ['api', 'checker'] as const;

export interface ReleasesProps {
  stage: string;
  functions: Functions;
  /** Stage `canary`: CodeDeploy shifts 10 % for 5 minutes, then the rest; off: all at once. */
  canary: boolean;
  /** The function's own error alarm (Alarms, `function-errors`), when the stage raises alarms. */
  errorAlarm?: (name: string) => IAlarm | undefined;
}

/**
 * How a new version reaches the `live` alias. With `canary`, CodeDeploy sends 10 % of invocations to
 * it for 5 minutes and rolls the alias back when the function's error alarm fires meanwhile (or the
 * deployment fails); without, CloudFormation points the alias at the new version at once.
 */
export class Releases extends Construct {
  readonly groups = new Map<string, LambdaDeploymentGroup>();

  constructor(scope: Construct, id: string, props: ReleasesProps) {
    super(scope, id);
    if (!props.canary) return;
    for (const name of CANARY_FUNCTIONS) {
      if (!props.functions.byName.has(name)) continue;
      const alias = props.functions.live(name);
      // A stage without alarms still needs something to roll back on: an alarm of its own, unsent.
      const alarm =
        props.errorAlarm?.(name) ??
        new Alarm(this, `${name}-errors`, {
          alarmName: `patrol-${props.stage}-release-errors-${name}`,
          alarmDescription: `The ${name} function threw or timed out during a release (CodeDeploy rolls back).`,
          metric: props.functions.get(name).metricErrors({ period: Duration.minutes(1), statistic: 'Sum' }),
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        });
      this.groups.set(
        name,
        new LambdaDeploymentGroup(this, `${name}-release`, {
          alias,
          deploymentConfig: LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES,
          alarms: [alarm],
          autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: true },
        }),
      );
    }
  }
}
