import { Stack } from 'aws-cdk-lib';
import { CfnBudget } from 'aws-cdk-lib/aws-budgets';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';

/** Percentages of the monthly budget whose actual cost sends an alert. */
export const BUDGET_ALERT_PERCENTS = [80, 100] as const;

export interface BudgetProps {
  stage: string;
  /** Stage `monthlyBudgetUsd`. */
  monthlyUsd: number;
  /** The alarm topic: alerts go where the alarms go. */
  topic: ITopic;
}

/**
 * An AWS Budget of the stage's monthly cost: an alert to the alarm topic when the actual cost passes
 * 80 % and 100 % of it. It counts the costs tagged `stage=<stage>` (the stack tags everything it can),
 * which AWS counts only once `stage` is activated as a cost allocation tag (docs/deploy.md); in an
 * account of its own, the stage is the account's whole bill anyway.
 */
export class Budget extends Construct {
  readonly budget: CfnBudget;

  constructor(scope: Construct, id: string, props: BudgetProps) {
    super(scope, id);
    const account = Stack.of(this).account;
    // AWS Budgets publishes with its own principal, for this account's budgets only.
    props.topic.addToResourcePolicy(
      new PolicyStatement({
        actions: ['sns:Publish'],
        principals: [new ServicePrincipal('budgets.amazonaws.com')],
        resources: [props.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': account },
          ArnLike: { 'aws:SourceArn': `arn:${Stack.of(this).partition}:budgets::${account}:*` },
        },
      }),
    );
    this.budget = new CfnBudget(this, 'Budget', {
      budget: {
        budgetName: `patrol-${props.stage}-monthly`,
        budgetType: 'COST',
        timeUnit: 'MONTHLY',
        budgetLimit: { amount: props.monthlyUsd, unit: 'USD' },
        costFilters: { TagKeyValue: [`user:stage$${props.stage}`] },
      },
      notificationsWithSubscribers: BUDGET_ALERT_PERCENTS.map((threshold) => ({
        notification: {
          notificationType: 'ACTUAL',
          comparisonOperator: 'GREATER_THAN',
          threshold,
          thresholdType: 'PERCENTAGE',
        },
        subscribers: [{ subscriptionType: 'SNS', address: props.topic.topicArn }],
      })),
    });
  }
}
