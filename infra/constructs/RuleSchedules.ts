import { Stack } from 'aws-cdk-lib';
import { type IGrantable, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { Construct } from 'constructs';

export interface RuleSchedulesProps {
  stage: string;
  /** The auto-check handler's `live` alias, which the schedules invoke. */
  target: IFunction;
  /** Where the scheduler puts a firing it could not deliver (the adapter sets it on every schedule). */
  deadLetterQueue: IQueue;
}

/** Exactly what keeping a rule's schedules takes: no group management, no other group. */
export const RULE_SCHEDULE_ACTIONS = [
  'scheduler:CreateSchedule',
  'scheduler:UpdateSchedule',
  'scheduler:DeleteSchedule',
] as const;

/**
 * The auto-check rules' schedules: a schedule group per stage, which the API fills with one
 * EventBridge Scheduler schedule per rule slot (functions/autoCheck/scheduler), and the role the
 * scheduler assumes to invoke the auto-check handler, allowed that one invocation and nothing else.
 */
export class RuleSchedules extends Construct {
  readonly group: CfnScheduleGroup;
  readonly role: Role;
  readonly groupName: string;

  constructor(
    scope: Construct,
    id: string,
    private readonly props: RuleSchedulesProps,
  ) {
    super(scope, id);
    this.groupName = `patrol-${props.stage}-auto-check`;
    this.group = new CfnScheduleGroup(this, 'Group', { name: this.groupName });
    const account = Stack.of(this).account;
    this.role = new Role(this, 'InvokeRole', {
      description: `EventBridge Scheduler invokes the Patrol ${props.stage} auto-check handler`,
      // Only schedules of this account may use it (confused deputy).
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': account } },
      }),
    });
    // The `live` alias only, not `:*` (every version): schedules target the alias's ARN.
    this.role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [props.target.functionArn] }),
    );
    // A schedule's dead-letter queue is written with the schedule's own role.
    props.deadLetterQueue.grantSendMessages(this.role);
  }

  /**
   * Lets `fn` keep the schedules of this group (and pass the invoke role to them), and tells it
   * where they are: the API's RuleScheduler reads these variables.
   */
  grantManage(fn: IGrantable & { addEnvironment(key: string, value: string): unknown }): void {
    const stack = Stack.of(this);
    const scheduleArn = stack.formatArn({
      service: 'scheduler',
      resource: 'schedule',
      resourceName: `${this.groupName}/*`,
    });
    fn.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: [...RULE_SCHEDULE_ACTIONS],
        resources: [scheduleArn],
      }),
    );
    // No ListSchedules, which takes no resource (it would be every schedule of the account): the
    // adapter knows a rule's schedules from the rule's times (eventBridgeRuleScheduler.ts).
    fn.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.role.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
    fn.addEnvironment('AUTO_CHECK_SCHEDULE_GROUP', this.groupName);
    fn.addEnvironment('AUTO_CHECK_TARGET_ARN', this.props.target.functionArn);
    fn.addEnvironment('AUTO_CHECK_SCHEDULER_ROLE_ARN', this.role.roleArn);
    fn.addEnvironment('AUTO_CHECK_DLQ_ARN', this.props.deadLetterQueue.queueArn);
  }
}
