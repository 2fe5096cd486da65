import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Annotations, CfnOutput, CfnResource, type RemovalPolicy, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import { Certificate, CertificateValidation, type ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ARecord, AaaaRecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import { Trigger } from 'aws-cdk-lib/triggers';
import type { Construct } from 'constructs';
import { LAMBDAS, type LambdaDef, QUEUES, type QueueDef } from '../functions/registry.js';
import { AccessLogs } from './constructs/AccessLogs.js';
import { Alarms } from './constructs/Alarms.js';
import { Api } from './constructs/Api.js';
import { Budget } from './constructs/Budget.js';
import { Data } from './constructs/Data.js';
import { Functions } from './constructs/Functions.js';
import { Keys } from './constructs/Keys.js';
import { OpsDashboard } from './constructs/OpsDashboard.js';
import { Queues } from './constructs/Queues.js';
import { Releases } from './constructs/Releases.js';
import { RuleSchedules } from './constructs/RuleSchedules.js';
import { Secrets } from './constructs/Secrets.js';
import { Storage } from './constructs/Storage.js';
import { Web } from './constructs/Web.js';
import { applyNagSuppressions } from './nag/nagSuppressions.js';
import type { StageConfig } from './stageConfig.js';
import { dataRemovalPolicy } from './removalPolicy.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface PatrolStackProps extends StackProps {
  stage: StageConfig;
  /** What to deploy; the real registry unless a test passes a copy. */
  registry?: { lambdas: readonly LambdaDef[]; queues: readonly QueueDef[] };
  /** Built console to upload. @default web/dist */
  webDistDir?: string;
  /** @default the repository root */
  repoRoot?: string;
  /** WAF web ACL of the distribution, from PatrolEdgeStack (us-east-1); none in tests of this stack alone. */
  webAclArn?: string;
  /** Its metric name (the `WebACL` dimension), for the dashboard's WAF graph. @default patrol-<stage>-acl */
  webAclMetricName?: string;
  /** CloudFront's certificate (us-east-1) for the stage's custom domain, when it has one. */
  cloudFrontCertificateArn?: string;
}

/** One Patrol stage. Only wiring: each concern and its grants live in its construct. */
export class PatrolStack extends Stack {
  readonly data: Data;
  readonly keys: Keys;
  readonly secrets: Secrets;
  readonly storage: Storage;
  readonly accessLogs: AccessLogs;
  readonly queues: Queues;
  readonly functions: Functions;
  readonly api: Api;
  readonly web: Web;
  readonly dashboard: OpsDashboard;
  readonly alarms?: Alarms;
  readonly releases: Releases;
  readonly budget?: Budget;
  readonly ruleSchedules?: RuleSchedules;
  readonly firstUser?: Trigger;

  constructor(scope: Construct, id: string, props: PatrolStackProps) {
    super(scope, id, props);
    const { stage } = props;
    const registry = props.registry ?? { lambdas: LAMBDAS, queues: QUEUES };
    const repoRoot = props.repoRoot ?? REPO_ROOT;
    const removalPolicy = dataRemovalPolicy(stage);
    Tags.of(this).add('project', 'patrol');
    Tags.of(this).add('stage', stage.name);

    this.data = new Data(this, 'Data', {
      removalPolicy,
      adopt:
        stage.tableName && stage.tableStreamArn
          ? { tableName: stage.tableName, streamArn: stage.tableStreamArn }
          : undefined,
      keptIndexes: stage.keptIndexes,
    });
    this.keys = new Keys(this, 'Keys', { stage: stage.name, removalPolicy });
    this.secrets = new Secrets(this, 'Secrets', { removalPolicy, rotationDays: stage.secretRotationDays });
    this.accessLogs = new AccessLogs(this, 'AccessLogs', { removalPolicy, expiryDays: stage.accessLogExpiryDays });
    this.storage = new Storage(this, 'Storage', {
      stage: stage.name,
      removalPolicy,
      videoExpiryDays: stage.videoExpiryDays,
      accessLogs: this.accessLogs.bucket,
    });
    this.queues = new Queues(this, 'Queues', { defs: registry.queues });
    this.functions = new Functions(this, 'Functions', {
      defs: registry.lambdas,
      repoRoot,
      stage: stage.name,
      logLevel: stage.logLevel,
      logRetentionDays: stage.logRetentionDays,
      removalPolicy,
      data: this.data,
      queues: this.queues,
      storage: this.storage,
      keys: this.keys,
      secrets: this.secrets,
      concurrency: stage.concurrency,
    });
    // Callers reach every function through its `live` alias (Functions.ts, Releases.ts).
    const apiFunction = this.functions.live(this.functions.httpName());

    // Auto-check rule slots: the registry's ruleSchedule function is their target, and the
    // functions whose access says `ruleSchedules` keep them.
    const ruleTarget = registry.lambdas.find((d) => d.trigger.type === 'ruleSchedule');
    if (ruleTarget) {
      const ruleSchedules = new RuleSchedules(this, 'RuleSchedules', {
        stage: stage.name,
        target: this.functions.live(ruleTarget.name),
        deadLetterQueue: this.queues.failures.scheduleDeliveries,
      });
      for (const { fn } of this.functions.where((d) => d.access.ruleSchedules === true)) ruleSchedules.grantManage(fn);
      this.ruleSchedules = ruleSchedules;
    }

    const domain = stage.domain;
    const zone = domain?.hostedZone
      ? HostedZone.fromHostedZoneAttributes(this, 'Zone', {
          hostedZoneId: domain.hostedZone.id,
          zoneName: domain.hostedZone.name,
        })
      : undefined;
    let apiCertificate: ICertificate | undefined;
    let cloudFrontCertificate: ICertificate | undefined;
    if (domain) {
      apiCertificate = zone
        ? new Certificate(this, 'ApiCertificate', {
            domainName: domain.name,
            validation: CertificateValidation.fromDns(zone),
          })
        : Certificate.fromCertificateArn(this, 'ApiCertificate', String(domain.apiCertificateArn));
      if (!props.cloudFrontCertificateArn) {
        throw new Error(`Stage '${stage.name}' has a domain but no CloudFront certificate reached its stack`);
      }
      cloudFrontCertificate = Certificate.fromCertificateArn(
        this,
        'CloudFrontCertificate',
        props.cloudFrontCertificateArn,
      );
    }

    this.api = new Api(this, 'Api', {
      stage: stage.name,
      handler: apiFunction,
      throttle: stage.apiThrottle,
      logRetentionDays: stage.logRetentionDays,
      removalPolicy,
      domain: domain && apiCertificate ? { name: domain.name, certificate: apiCertificate } : undefined,
    });
    this.web = new Web(this, 'Web', {
      stage: stage.name,
      apiDomainName: this.api.originDomainName,
      forwardHostToApi: this.api.executeApiDisabled,
      domain: domain && cloudFrontCertificate ? { name: domain.name, certificate: cloudFrontCertificate } : undefined,
      accessLogs: this.accessLogs.bucket,
      logRetentionDays: stage.logRetentionDays,
      distDir: props.webDistDir ?? path.join(repoRoot, 'web', 'dist'),
      removalPolicy,
      videoOrigin: this.storage.origin,
      originSecret: this.secrets.originSecretValue(),
      webAclArn: props.webAclArn,
    });
    if (zone && domain) {
      const target = RecordTarget.fromAlias(new CloudFrontTarget(this.web.distribution));
      new ARecord(this, 'ConsoleA', { zone, recordName: domain.name, target });
      new AaaaRecord(this, 'ConsoleAaaa', { zone, recordName: domain.name, target });
    }

    // The console's address exists only once CloudFront does, which in turn fronts the API above.
    const publicUrl = stage.publicUrl ?? this.web.url;
    this.functions.setPublicUrl(publicUrl);
    this.storage.allowWebOrigin(publicUrl);

    // Secret rotation: the function Secrets Manager calls, and the distribution it updates.
    for (const { def, fn } of this.functions.where((d) => d.trigger.type === 'secretRotation')) {
      for (const name of def.access.stageSecrets?.rotate ?? []) this.secrets.rotateWith(name, fn);
      // Secrets Manager invokes the function itself (unqualified), not its `live` alias: its
      // permission is rightly on the function.
      Annotations.of(fn).acknowledgeWarning(
        '@aws-cdk/aws-lambda:addPermissionsToVersionOrAlias',
        'Secrets Manager rotates with the unqualified function',
      );
      if (def.access.distributionOrigin) {
        fn.addEnvironment('DISTRIBUTION_ID', this.web.distribution.distributionId);
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: ['cloudfront:GetDistributionConfig', 'cloudfront:UpdateDistribution'],
            resources: [this.web.distribution.distributionArn],
          }),
        );
      }
    }

    // The first super user, once the table exists (and again only if the function's code changes;
    // it creates nobody on a table that has users).
    for (const { fn } of this.functions.where((d) => d.trigger.type === 'afterDeploy')) {
      this.firstUser = new Trigger(this, `${fn.node.id}-trigger`, {
        handler: fn,
        executeAfter: [this.data.table],
        executeOnHandlerChange: true,
      });
    }
    if (this.firstUser) this.keepProviderLogs(stage.logRetentionDays, removalPolicy);

    const streamFunction = registry.lambdas.find((d) => d.trigger.type === 'stream')?.name;
    this.dashboard = new OpsDashboard(this, 'Dashboard', {
      stage: stage.name,
      queues: this.queues,
      functions: this.functions,
      httpApi: this.api.httpApi,
      table: this.data.table,
      streamFunction,
      webAclMetricName: props.webAclMetricName ?? `patrol-${stage.name}-acl`,
    });
    if (stage.alarms && stage.alarmEmail) {
      this.alarms = new Alarms(this, 'Alarms', {
        stage: stage.name,
        queues: this.queues,
        functions: this.functions,
        httpApi: this.api.httpApi,
        table: this.data.table,
        streamFunction,
        email: stage.alarmEmail,
      });
      if (stage.monthlyBudgetUsd !== undefined) {
        this.budget = new Budget(this, 'Budget', {
          stage: stage.name,
          monthlyUsd: stage.monthlyBudgetUsd,
          topic: this.alarms.topic,
        });
      }
    }
    const alarms = this.alarms;
    this.releases = new Releases(this, 'Releases', {
      stage: stage.name,
      functions: this.functions,
      canary: stage.canary,
      errorAlarm: alarms ? (name) => alarms.byKey.get(`function-errors-${name}`) : undefined,
    });

    new CfnOutput(this, 'ConsoleUrl', { value: publicUrl });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'VideoBucket', { value: this.storage.bucket.bucketName });
    new CfnOutput(this, 'AccessLogBucket', { value: this.accessLogs.bucket.bucketName });
    new CfnOutput(this, 'JwtSecretArn', { value: this.secrets.jwtSecret.secretArn });
    new CfnOutput(this, 'OriginSecretArn', { value: this.secrets.originSecret.secretArn });
    new CfnOutput(this, 'AdminPasswordSecret', {
      description: 'The first password of the super user admin: read it once, sign in, change it',
      value: this.secrets.adminPassword.secretArn,
    });
    new CfnOutput(this, 'DashboardName', { value: this.dashboard.dashboard.dashboardName });
    new CfnOutput(this, 'SecretsKeyArn', {
      description: 'The KMS key of stored secrets: it stays after cdk destroy in a retaining stage',
      value: this.keys.key.keyArn,
    });
    // The operator's hand-run functions, by this stage's name (a lookup by description matched every stage's).
    for (const [output, name] of [
      ['DataRepairFunction', 'dataRepair'],
      ['SyncSchedulesFunction', 'syncSchedules'],
    ] as const) {
      if (this.functions.byName.has(name))
        new CfnOutput(this, output, { value: this.functions.get(name).functionName });
    }
    if (this.alarms) new CfnOutput(this, 'AlarmTopicArn', { value: this.alarms.topic.topicArn });

    applyNagSuppressions(this, stage);
  }

  /**
   * The CDK trigger's provider function (a singleton CDK makes, not a registry entry) logs to a
   * group of ours with the stage's retention, instead of one Lambda would make and keep forever.
   */
  private keepProviderLogs(retentionDays: number, removalPolicy: RemovalPolicy): void {
    const provider = this.node.tryFindChild('AWSCDK.TriggerCustomResourceProviderCustomResourceProvider');
    const handler = provider?.node.tryFindChild('Handler');
    if (!(handler instanceof CfnResource)) throw new Error('The CDK trigger provider has no Handler function');
    const logs = new LogGroup(this, 'TriggerProviderLogs', {
      retention: retentionDays as RetentionDays,
      removalPolicy,
    });
    handler.addPropertyOverride('LoggingConfig', { LogGroup: logs.logGroupName });
    handler.node.addDependency(logs);
  }
}
