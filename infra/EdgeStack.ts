import { ArnFormat, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Certificate, CertificateValidation } from 'aws-cdk-lib/aws-certificatemanager';
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { HostedZone } from 'aws-cdk-lib/aws-route53';
import { CfnLoggingConfiguration, CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { ErrorCode } from '../shared/envelope.js';
import { alarmTopic } from './constructs/Alarms.js';
import { dataRemovalPolicy } from './removalPolicy.js';
import { applyNagSuppressions } from './nag/nagSuppressions.js';
import type { StageConfig } from './stageConfig.js';

/** WAF web ACLs for CloudFront exist only in us-east-1, wherever the rest of the stage lives. */
export const EDGE_REGION = 'us-east-1';
/** Paths a password guesser or captcha farmer hammers; the API's own limits stand behind this. */
export const RATE_LIMITED_PATHS = ['/api/v1/login', '/api/v1/captcha'] as const;
const WINDOW_SECONDS = 300;
/** Blocked requests in 5 minutes that make a spike worth a person's look (a guesser, a scraper). */
export const WAF_BLOCKED_ALARM_THRESHOLD = 100;

export interface PatrolEdgeStackProps extends StackProps {
  stage: StageConfig;
}

/**
 * The stage's pieces that AWS requires in us-east-1: the WAF web ACL of the CloudFront distribution.
 * A stack of its own (PatrolEdge-<stage>) so the main stack can live in any region; the main stack
 * reads the ACL's ARN through CDK's cross-region references (this stack's outputs).
 */
export class PatrolEdgeStack extends Stack {
  readonly webAcl: CfnWebACL;
  readonly webAclArn: string;
  readonly webAclName: string;
  /**
   * The ACL's own metric name (its VisibilityConfig), which WAF publishes its metrics under as the
   * `WebACL` dimension: the alarm and the dashboard read it from here, never rebuild it.
   */
  readonly webAclMetricName: string;
  /** The WAF's request log (`aws-waf-logs-` is the prefix WAF requires of a log group it writes). */
  readonly wafLogs: LogGroup;
  /** CloudFront's certificate for the stage's domain, when the stage names a Route 53 zone to validate it in. */
  readonly certificateArn?: string;

  constructor(scope: Construct, id: string, props: PatrolEdgeStackProps) {
    super(scope, id, { ...props, env: { account: props.env?.account, region: EDGE_REGION } });
    const { stage } = props;
    const metric = (name: string) => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName: `patrol-${stage.name}-${name}`,
    });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      // Required by WAF; one ACL per stage and account.
      name: `patrol-${stage.name}`,
      description: `Patrol ${stage.name}: rate limits in front of the console and its API`,
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: metric('acl'),
      customResponseBodies: {
        'too-many-requests': {
          contentType: 'APPLICATION_JSON',
          // The API's own envelope, so the console shows it like any other 429.
          content: JSON.stringify({
            code: ErrorCode.TooManyRequests,
            msg: 'Too many requests, try again in a few minutes',
          }),
        },
      },
      rules: [
        {
          name: 'login-and-captcha-rate',
          priority: 0,
          action: {
            block: {
              customResponse: {
                responseCode: 429,
                customResponseBodyKey: 'too-many-requests',
                responseHeaders: [{ name: 'retry-after', value: String(WINDOW_SECONDS) }],
              },
            },
          },
          statement: {
            rateBasedStatement: {
              limit: stage.loginRateLimitPer5Min,
              evaluationWindowSec: WINDOW_SECONDS,
              // The viewer's address as CloudFront saw it; forwarded headers are the client's to write.
              aggregateKeyType: 'IP',
              scopeDownStatement: {
                orStatement: {
                  statements: RATE_LIMITED_PATHS.map((searchString) => ({
                    byteMatchStatement: {
                      searchString,
                      fieldToMatch: { uriPath: {} },
                      positionalConstraint: 'STARTS_WITH',
                      textTransformations: [{ priority: 0, type: 'LOWERCASE' }],
                    },
                  })),
                },
              },
            },
          },
          visibilityConfig: metric('login-rate'),
        },
      ],
    });
    this.webAclArn = this.webAcl.attrArn;
    this.webAclName = `patrol-${stage.name}`;
    this.webAclMetricName = (this.webAcl.visibilityConfig as CfnWebACL.VisibilityConfigProperty).metricName;

    // What the WAF saw and did, kept as long as the stage keeps its function logs.
    this.wafLogs = new LogGroup(this, 'WafLogs', {
      logGroupName: `aws-waf-logs-patrol-${stage.name}`,
      retention: stage.logRetentionDays as RetentionDays,
      removalPolicy: dataRemovalPolicy(stage),
    });
    new CfnLoggingConfiguration(this, 'WafLogging', {
      resourceArn: this.webAcl.attrArn,
      // WAF takes the group's ARN without the `:*` CloudWatch's own ARN attribute ends with.
      logDestinationConfigs: [
        this.formatArn({
          service: 'logs',
          resource: 'log-group',
          resourceName: this.wafLogs.logGroupName,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
    }).node.addDependency(this.wafLogs);

    // CloudFront takes certificates from us-east-1 only: requested here, validated in the zone.
    if (stage.domain?.hostedZone) {
      const zone = HostedZone.fromHostedZoneAttributes(this, 'Zone', {
        hostedZoneId: stage.domain.hostedZone.id,
        zoneName: stage.domain.hostedZone.name,
      });
      this.certificateArn = new Certificate(this, 'Certificate', {
        domainName: stage.domain.name,
        validation: CertificateValidation.fromDns(zone),
      }).certificateArn;
    }

    // CloudFront's WAF metrics exist only here, and an alarm can only notify a topic of its own
    // region: the edge stack has its own topic, with the same subscriber as the main stack's.
    if (stage.alarms && stage.alarmEmail) {
      const topic = alarmTopic(this, stage.alarmEmail);
      const blocked = new Alarm(this, 'WafBlocked', {
        alarmName: `patrol-${stage.name}-waf-blocked`,
        alarmDescription:
          `The WAF blocked at least ${WAF_BLOCKED_ALARM_THRESHOLD} requests in 5 minutes. ` +
          'Runbook: docs/deploy.md, "Alarms", waf-blocked.',
        metric: new Metric({
          namespace: 'AWS/WAFV2',
          metricName: 'BlockedRequests',
          // WAF's dimension is the ACL's metric name, as on the dashboard (OpsDashboard wafMetric).
          dimensionsMap: { WebACL: this.webAclMetricName, Rule: 'ALL' },
          statistic: 'Sum',
          period: Duration.minutes(5),
        }),
        threshold: WAF_BLOCKED_ALARM_THRESHOLD,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      blocked.addAlarmAction(new SnsAction(topic));
      blocked.addOkAction(new SnsAction(topic));
    }
    applyNagSuppressions(this, stage);
  }
}
