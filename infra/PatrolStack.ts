import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CfnOutput, RemovalPolicy, Stack, type StackProps, Tags } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { LAMBDAS, type LambdaDef, QUEUES, type QueueDef } from '../functions/registry.js';
import { Alarms } from './constructs/Alarms.js';
import { Api } from './constructs/Api.js';
import { Data } from './constructs/Data.js';
import { Functions } from './constructs/Functions.js';
import { Keys } from './constructs/Keys.js';
import { Queues } from './constructs/Queues.js';
import { RuleSchedules } from './constructs/RuleSchedules.js';
import { Secrets } from './constructs/Secrets.js';
import { Storage } from './constructs/Storage.js';
import { Web } from './constructs/Web.js';
import type { StageConfig } from './stageConfig.js';

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
}

/** One Patrol stage. Only wiring: each concern and its grants live in its construct. */
export class PatrolStack extends Stack {
  readonly data: Data;
  readonly keys: Keys;
  readonly secrets: Secrets;
  readonly storage: Storage;
  readonly queues: Queues;
  readonly functions: Functions;
  readonly api: Api;
  readonly web: Web;
  readonly alarms?: Alarms;
  readonly ruleSchedules?: RuleSchedules;

  constructor(scope: Construct, id: string, props: PatrolStackProps) {
    super(scope, id, props);
    const { stage } = props;
    const registry = props.registry ?? { lambdas: LAMBDAS, queues: QUEUES };
    const repoRoot = props.repoRoot ?? REPO_ROOT;
    const removalPolicy = stage.removalPolicy === 'retain' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    Tags.of(this).add('project', 'patrol');
    Tags.of(this).add('stage', stage.name);

    this.data = new Data(this, 'Data', { removalPolicy });
    this.keys = new Keys(this, 'Keys', { stage: stage.name, removalPolicy });
    this.secrets = new Secrets(this, 'Secrets', {
      stage: stage.name,
      removalPolicy,
      jwtSecretRevision: stage.jwtSecretRevision,
    });
    this.storage = new Storage(this, 'Storage', {
      stage: stage.name,
      removalPolicy,
      videoExpiryDays: stage.videoExpiryDays,
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
      concurrency: stage.concurrency,
    });
    const apiFunction = this.functions.httpHandler();
    // Only the functions whose registry `access` says `jwt` (the local runner reads the same flag).
    for (const def of registry.lambdas)
      if (def.trigger.type !== 'startup' && def.access.jwt) this.secrets.passJwtSecretTo(this.functions.get(def.name));
    this.secrets.passOriginSecretTo(apiFunction);

    // Auto-check rule slots: the registry's ruleSchedule function is their target, and the
    // functions whose access says `ruleSchedules` keep them.
    const ruleTarget = registry.lambdas.find((d) => d.trigger.type === 'ruleSchedule');
    if (ruleTarget) {
      const ruleSchedules = new RuleSchedules(this, 'RuleSchedules', {
        stage: stage.name,
        target: this.functions.get(ruleTarget.name),
      });
      for (const def of registry.lambdas)
        if (def.trigger.type !== 'startup' && def.access.ruleSchedules)
          ruleSchedules.grantManage(this.functions.get(def.name));
      this.ruleSchedules = ruleSchedules;
    }

    this.api = new Api(this, 'Api', {
      stage: stage.name,
      handler: apiFunction,
      throttle: stage.apiThrottle,
      logRetentionDays: stage.logRetentionDays,
      removalPolicy,
    });
    this.web = new Web(this, 'Web', {
      stage: stage.name,
      apiDomainName: this.api.domainName,
      distDir: props.webDistDir ?? path.join(repoRoot, 'web', 'dist'),
      removalPolicy,
      videoOrigin: this.storage.origin,
      originSecret: this.secrets.originSecretValue(),
      webAclArn: props.webAclArn,
    });

    // The console's address exists only once CloudFront does, which in turn fronts the API above.
    const publicUrl = stage.publicUrl ?? this.web.url;
    this.functions.setPublicUrl(publicUrl);
    this.storage.allowWebOrigin(publicUrl);

    if (stage.alarms) {
      this.alarms = new Alarms(this, 'Alarms', {
        queues: this.queues,
        functions: this.functions,
        httpApi: this.api.httpApi,
        email: stage.alarmEmail,
      });
    }

    new CfnOutput(this, 'ConsoleUrl', { value: publicUrl });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'VideoBucket', { value: this.storage.bucket.bucketName });
    new CfnOutput(this, 'JwtSecretArn', { value: this.secrets.jwtSecret.secretArn });
  }
}
