import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Dashboard, GraphWidget, type IMetric, Metric, TextWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { PATROL_METRICS, type PatrolMetricName } from '../../functions/lib/metrics.js';
import { EDGE_REGION } from '../EdgeStack.js';
import { PRODUCT_ALARMS, productMetric, tableThrottles } from './Alarms.js';
import type { Functions } from './Functions.js';
import type { Queues } from './Queues.js';

export interface OpsDashboardProps {
  stage: string;
  queues: Queues;
  functions: Functions;
  httpApi: HttpApi;
  table: ITable;
  streamFunction?: string;
  /** The WAF web ACL's metric name (PatrolEdgeStack.webAclMetricName), whose metrics live in us-east-1. */
  webAclMetricName: string;
}

const PERIOD = Duration.minutes(5);
const WIDTH = 12;
const HEIGHT = 6;

/**
 * One dashboard per stage (`patrol-<stage>`): the product's own health first, then what the
 * alarms watch among AWS's metrics, so the graph behind an alarm e-mail is one click away.
 */
export class OpsDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OpsDashboardProps) {
    super(scope, id);
    const graph = (title: string, left: IMetric[], right: IMetric[] = []) =>
      new GraphWidget({ title, left, right, width: WIDTH, height: HEIGHT });
    const product = (name: PatrolMetricName) =>
      productMetric(props.stage, name, PRODUCT_ALARMS[name].statistic).with({ label: name });
    const fns = [...props.functions.byName.entries()];

    // Named: operators open it by name from the console and the deploy guide links it.
    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `patrol-${props.stage}`,
      defaultInterval: Duration.hours(6),
    });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown: `# Patrol ${props.stage}\nAlarms and what to do: docs/deploy.md, "Alarms". Product metrics are in the \`Patrol\` namespace, dimension \`stage\`.`,
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      graph('Bank poll lag (ms after the due second)', [
        productMetric(props.stage, 'BankPollLag', 'p50').with({ label: 'p50' }),
        productMetric(props.stage, 'BankPollLag', 'p95').with({ label: 'p95' }),
      ]),
      graph(
        'Failures the product counted',
        (Object.keys(PATROL_METRICS) as PatrolMetricName[]).filter((n) => n !== 'BankPollLag').map(product),
      ),
    );
    this.dashboard.addWidgets(
      graph(
        'Oldest message on each work queue (s)',
        [...props.queues.byName.values()].map(({ def, queue }) =>
          queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum', label: def.name }),
        ),
      ),
      graph(
        'Dead letters',
        props.queues
          .deadLetterQueues()
          .map(({ name, queue }) =>
            queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum', label: name }),
          ),
      ),
    );
    this.dashboard.addWidgets(
      graph(
        'Function errors',
        fns.map(([name, fn]) => fn.metricErrors({ period: PERIOD, statistic: 'Sum', label: name })),
      ),
      graph(
        'Function throttles',
        fns.map(([name, fn]) => fn.metricThrottles({ period: PERIOD, statistic: 'Sum', label: name })),
      ),
    );
    this.dashboard.addWidgets(
      graph(
        'Function duration p95 (ms)',
        fns.map(([name, fn]) => fn.metricDuration({ period: PERIOD, statistic: 'p95', label: name })),
      ),
      graph(
        'Table stream and DynamoDB throttling',
        props.streamFunction
          ? [
              props.functions
                .get(props.streamFunction)
                .metric('IteratorAge', { period: PERIOD, statistic: 'Maximum', label: 'Stream iterator age (ms)' }),
            ]
          : [],
        [tableThrottles(props.table)],
      ),
    );
    this.dashboard.addWidgets(
      graph(
        'API requests and errors',
        [props.httpApi.metricCount({ period: PERIOD, statistic: 'Sum', label: 'requests' })],
        [
          props.httpApi.metricClientError({ period: PERIOD, statistic: 'Sum', label: '4xx' }),
          props.httpApi.metricServerError({ period: PERIOD, statistic: 'Sum', label: '5xx' }),
        ],
      ),
      graph('WAF (us-east-1)', [
        wafMetric(props.webAclMetricName, 'AllowedRequests'),
        wafMetric(props.webAclMetricName, 'BlockedRequests'),
      ]),
    );
  }
}

/**
 * A CloudFront WAF metric: kept in us-east-1 whatever the stage's region, under Rule=ALL. WAF names
 * the `WebACL` dimension by the ACL's metric name (its VisibilityConfig), not by the ACL's name.
 */
export function wafMetric(webAclMetricName: string, metricName: 'AllowedRequests' | 'BlockedRequests'): Metric {
  return new Metric({
    namespace: 'AWS/WAFV2',
    metricName,
    dimensionsMap: { WebACL: webAclMetricName, Rule: 'ALL' },
    region: EDGE_REGION,
    statistic: 'Sum',
    period: PERIOD,
    label: metricName,
  });
}
