import { type Stack, Token, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import type { StageConfig } from '../stageConfig.js';

// Every cdk-nag finding the app acknowledges, in one place: a construct path below its stack
// (`*` stands for any characters within one path segment), the rules, and why, in a sentence.
// Anything not listed here is fixed in the construct instead. The infra tests and
// `npm run nag` fail on any other error, and on an entry that no longer matches anything.

/** How a finding spells the stack's partition, region and account: literal when known at synth. */
export interface ArnParts {
  partition: string;
  region: string;
  account: string;
  stage: string;
}

export interface NagSuppression {
  /** Path below the stack, e.g. `Functions/*-role/DefaultPolicy/Resource`. */
  path: string;
  /** Rule ids as cdk-nag reports them; a function for ids that name the stack's region or account. */
  rules: readonly (string | ((arn: ArnParts) => string))[];
  reason: string;
  /** Only for stages where this holds (e.g. no custom domain). */
  onlyWhen?: (stage: StageConfig) => boolean;
}

/** The CDK-owned function that uploads the built console (aws-s3-deployment). */
const BUCKET_DEPLOYMENT = 'Custom::CDKBucketDeployment*';

export const NAG_SUPPRESSIONS: readonly NagSuppression[] = [
  // Functions
  {
    path: 'Functions/*-role/DefaultPolicy/Resource',
    rules: ['AwsSolutions-IAM5[Resource::*]'],
    reason:
      "X-Ray's PutTraceSegments and PutTelemetryRecords take no resource (tracing is on for every function); the secret rotation function also gets Secrets Manager's GetRandomPassword, which takes none either.",
  },
  {
    path: 'Functions/*-role/DefaultPolicy/Resource',
    rules: ['AwsSolutions-IAM5[Resource::<DataTableFDBAD0F2.Arn>/index/*]'],
    reason:
      "The table's global secondary indexes (functions/lib/db/tableSchema.ts) are all read by the list engine; the grant follows the table's index list instead of naming each one.",
  },
  {
    path: 'Functions/*-role/DefaultPolicy/Resource',
    rules: ['AwsSolutions-IAM5[Resource::<StorageVideos75D4D269.Arn>/checks/*]'],
    reason:
      'Objects under the evidence prefix only (registry CHECK_EVIDENCE_PREFIX): each check writes its own keys there, so the grant is by prefix.',
  },
  {
    path: 'Functions/*-role/DefaultPolicy/Resource',
    rules: ['AwsSolutions-IAM5[Resource::<StorageVideos75D4D269.Arn>/reports/*]'],
    reason:
      "Objects under the reports' prefix only (registry REPORTS_PREFIX): each report's PDF has its own key there, so the grant is by prefix.",
  },
  {
    path: 'Functions/api-role/DefaultPolicy/Resource',
    rules: [
      (a) =>
        `AwsSolutions-IAM5[Resource::arn:${a.partition}:scheduler:${a.region}:${a.account}:schedule/patrol-${a.stage}-auto-check/*]`,
    ],
    reason:
      "The auto-check schedules are created per rule slot at run time; the grant is limited to the stage's own schedule group.",
  },
  {
    path: 'Functions/syncSchedules-role/DefaultPolicy/Resource',
    rules: [
      (a) =>
        `AwsSolutions-IAM5[Resource::arn:${a.partition}:scheduler:${a.region}:${a.account}:schedule/patrol-${a.stage}-auto-check/*]`,
    ],
    reason:
      "The schedule re-sync after a restore puts every rule slot's schedule back; the grant is limited to the stage's own schedule group, like the API's.",
  },
  // Releases
  {
    path: 'Releases/*-release/ServiceRole/Resource',
    rules: [
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
    ],
    reason:
      "CodeDeploy's own managed role policy for Lambda canaries: it may shift the stage's aliases and read their alarms, and AWS keeps it current with what a Lambda deployment needs.",
    onlyWhen: (stage) => stage.canary,
  },
  {
    path: 'Functions/*/SqsEventSource*/Resource',
    rules: ['Serverless-LambdaEventSourceMappingDestination'],
    reason:
      "SQS event source mappings take no on-failure destination: a message that fails maxReceiveCount times moves to its queue's dead-letter queue, which is alarmed.",
  },
  // Queues
  {
    path: 'Queues/*-dlq/Resource',
    rules: ['Serverless-SQSRedrivePolicy'],
    reason: 'It is a dead-letter queue itself: its messages wait 14 days for a person, alarmed from the first one.',
  },
  {
    path: 'Queues/*-dlq/Resource',
    rules: ['AwsSolutions-SQS3'],
    reason:
      'A dead-letter queue of EventBridge rules, Scheduler schedules, asynchronous Lambda invocations or the stream mapping, which cdk-nag cannot see as such (it looks only for SQS redrive policies).',
  },
  {
    path: '*/UndeliveredAlarms/Resource',
    rules: ['Serverless-SQSRedrivePolicy', 'AwsSolutions-SQS3'],
    reason:
      "The dead-letter queue of the alarm topic's e-mail subscription (an SNS redrive policy, which cdk-nag does not recognise); shown on the dashboard.",
  },
  {
    path: 'UndeliveredAlarms/Resource',
    rules: ['Serverless-SQSRedrivePolicy', 'AwsSolutions-SQS3'],
    reason:
      "The dead-letter queue of the edge stack's alarm topic subscription (an SNS redrive policy, which cdk-nag does not recognise).",
  },
  // Secrets
  {
    path: 'Secrets/AdminPassword/Resource',
    rules: ['AwsSolutions-SMG4'],
    reason:
      "The first password of the super user admin, read once by the first-user trigger; the operator changes it at first sign-in (docs/deploy.md), after which the secret opens nothing, and rotating it would not change the user's password.",
  },
  // API and edge
  {
    path: 'Api/HttpApi/*/Resource',
    rules: ['AwsSolutions-APIG4'],
    reason:
      'The API authorizes each route itself (login tokens, API keys, roles: functions/lib/http/middlewares/access.ts), behind an origin gate that refuses every request not sent by CloudFront with the rotated origin secret.',
  },
  {
    path: 'Web/Distribution/Resource',
    rules: ['AwsSolutions-CFR4'],
    reason:
      "Without a custom domain the distribution serves CloudFront's own *.cloudfront.net certificate, whose minimum TLS version CloudFront fixes at TLSv1; set the stage's domain for TLSv1.2_2021.",
    onlyWhen: (stage) => stage.domain === undefined,
  },
  // The access log bucket
  {
    path: 'AccessLogs/Bucket/Resource',
    rules: ['AwsSolutions-S1'],
    reason: 'It is the access log bucket: logging its own access into itself would loop.',
  },
  // The CDK-owned upload of the built console (aws-s3-deployment), not code of ours
  {
    path: BUCKET_DEPLOYMENT,
    rules: ['AwsSolutions-L1', 'Serverless-LambdaLatestVersion', 'Serverless-LambdaDLQ'],
    reason:
      "CDK's BucketDeployment function: its runtime is chosen by aws-cdk-lib, and CloudFormation invokes it synchronously as a custom resource, so a dead-letter queue would never receive anything.",
  },
  {
    path: `${BUCKET_DEPLOYMENT}/ServiceRole/Resource`,
    rules: ['AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]'],
    reason: "CDK's BucketDeployment function role, as aws-cdk-lib creates it; it runs only during a deploy.",
  },
  {
    path: `${BUCKET_DEPLOYMENT}/ServiceRole/DefaultPolicy/Resource`,
    rules: [
      'AwsSolutions-IAM5[Action::s3:GetObject*]',
      'AwsSolutions-IAM5[Action::s3:GetBucket*]',
      'AwsSolutions-IAM5[Action::s3:List*]',
      'AwsSolutions-IAM5[Action::s3:DeleteObject*]',
      'AwsSolutions-IAM5[Action::s3:Abort*]',
      'AwsSolutions-IAM5[Resource::<WebSiteD504717C.Arn>/*]',
      'AwsSolutions-IAM5[Resource::*]',
      (a) => `AwsSolutions-IAM5[Resource::arn:${a.partition}:s3:::cdk-hnb659fds-assets-${a.account}-${a.region}/*]`,
    ],
    reason:
      "CDK's BucketDeployment copies the console from the bootstrap asset bucket into the console bucket, with the grants aws-cdk-lib gives it on those two buckets, and invalidates index.html (CloudFront's CreateInvalidation, which it grants on every distribution).",
  },
];

const segmentPattern = (path: string) =>
  new RegExp(
    `^${path
      .split('/')
      .map((segment) =>
        segment
          .split('*')
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]*'),
      )
      .join('/')}$`,
  );

/** Acknowledges the suppressions that apply to `stage` on the constructs of `stack` whose path matches. */
export function applyNagSuppressions(stack: Stack, stage: StageConfig, suppressions = NAG_SUPPRESSIONS): void {
  const prefix = `${stack.node.path}/`;
  const spelled = (value: string, token: string) => (Token.isUnresolved(value) ? token : value);
  const arn: ArnParts = {
    partition: spelled(stack.partition, '<AWS::Partition>'),
    region: spelled(stack.region, '<AWS::Region>'),
    account: spelled(stack.account, '<AWS::AccountId>'),
    stage: stage.name,
  };
  const matchers = suppressions
    .filter((s) => s.onlyWhen?.(stage) ?? true)
    .map((s) => ({ ...s, pattern: segmentPattern(s.path) }));
  for (const construct of stack.node.findAll()) {
    if (!construct.node.path.startsWith(prefix)) continue;
    const relative = construct.node.path.slice(prefix.length);
    for (const m of matchers) {
      if (!m.pattern.test(relative)) continue;
      for (const rule of m.rules) {
        const id = typeof rule === 'string' ? rule : rule(arn);
        Validations.of(construct as IConstruct).acknowledge({ id, reason: m.reason });
      }
    }
  }
}

/** Whether any construct of these stacks matches a suppression's path (a stale entry matches none). */
export function suppressionMatches(stacks: readonly Stack[], suppression: NagSuppression): boolean {
  const pattern = segmentPattern(suppression.path);
  return stacks.some((stack) =>
    stack.node
      .findAll()
      .some(
        (c) =>
          c.node.path.startsWith(`${stack.node.path}/`) && pattern.test(c.node.path.slice(stack.node.path.length + 1)),
      ),
  );
}
