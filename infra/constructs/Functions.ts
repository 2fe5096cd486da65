import path from 'node:path';
import { Duration, RemovalPolicy, Size } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import {
  Alias,
  Architecture,
  FilterCriteria,
  FilterRule,
  Runtime,
  StartingPosition,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from '../../functions/lib/metrics.js';
import { type AccessDef, deploysInCloud, type LambdaDef } from '../../functions/registry.js';
import type { LogLevel } from '../stageConfig.js';
import type { Data } from './Data.js';
import type { Keys } from './Keys.js';
import type { Queues } from './Queues.js';
import type { Secrets } from './Secrets.js';
import type { Storage } from './Storage.js';

export interface FunctionsProps {
  /** The registry's LAMBDAS (a copy may be passed in tests). */
  defs: readonly LambdaDef[];
  /** Registry entries are paths from here. */
  repoRoot: string;
  stage: string;
  logLevel: LogLevel;
  logRetentionDays: number;
  removalPolicy: RemovalPolicy;
  data: Data;
  queues: Queues;
  storage: Storage;
  keys: Keys;
  secrets: Secrets;
  /** Per-stage invocations at once of sqs functions, by registry name (cdk.json `concurrency`). */
  concurrency?: Readonly<Record<string, number>>;
}

/** The Chromium ones record video into /tmp and decompress the browser there (~300 MB). */
export const CHROMIUM_MIN_MEMORY_MB = 2048;
const CHROMIUM_EPHEMERAL = Size.mebibytes(2048);
/** @sparticuz/chromium ships an x86_64 browser only. */
const CHROMIUM_PACKAGE = '@sparticuz/chromium';
/** Reads its font from `__dirname` at import, which a bundle cannot provide; the API draws login captchas. */
const HTTP_FILE_READING_PACKAGES = ['svg-captcha'];
/** Lambda polls a queue with at least 2 concurrent invocations when a maximum is set. */
const MIN_SQS_CONCURRENCY = 2;
/**
 * What every caller invokes: each deploy publishes a version and moves this alias to it (at once,
 * or by CodeDeploy's canary: Releases.ts), so a release is a switch between two whole versions.
 */
export const LIVE_ALIAS = 'live';

/**
 * Every Lambda of the registry, bundled by the local esbuild (no docker), wired to its trigger and
 * given exactly the grants its registry entry declares (`access`). A new registry entry deploys
 * without a code change here.
 */
export class Functions extends Construct {
  readonly byName = new Map<string, NodejsFunction>();
  /** Each function's `live` alias: API routes, queue and stream triggers and schedules target it. */
  readonly aliases = new Map<string, Alias>();
  private readonly defs: readonly LambdaDef[];

  constructor(scope: Construct, id: string, props: FunctionsProps) {
    super(scope, id);
    this.defs = props.defs;
    const concurrency = props.concurrency ?? {};
    for (const name of Object.keys(concurrency)) {
      const def = props.defs.find((d) => d.name === name);
      if (def?.trigger.type !== 'sqs') {
        throw new Error(`The stage sets the concurrency of '${name}', which is no queue consumer of the registry`);
      }
    }
    const sharedEnv: Record<string, string> = {
      TABLE_NAME: props.data.table.tableName,
      VIDEO_BUCKET: props.storage.bucket.bucketName,
      KMS_KEY_ID: props.keys.key.keyArn,
      LOG_LEVEL: props.logLevel,
      NODE_OPTIONS: '--enable-source-maps',
      // The product's own health metrics (functions/lib/metrics.ts), written as EMF log lines.
      POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      PATROL_STAGE: props.stage,
      ...props.queues.urlEnvironment(),
    };

    for (const def of props.defs) {
      if (this.byName.has(def.name)) throw new Error(`Lambda '${def.name}' is declared twice in the registry`);
      // Startup hooks re-enqueue what the local queue forgot on restart. SQS forgets nothing and the
      // cloud has no boot moment; work stuck for other reasons is a schedule entry's job. A repair
      // that a deploy may need is deployed without a trigger, to be invoked by hand.
      if (!deploysInCloud(def)) continue;
      const chromium = def.chromium === true;
      const nodeModules = [
        ...(chromium ? [CHROMIUM_PACKAGE] : []),
        ...(def.trigger.type === 'http' ? HTTP_FILE_READING_PACKAGES : []),
      ];
      const logGroup = new LogGroup(this, `${def.name}-logs`, {
        retention: props.logRetentionDays as RetentionDays,
        removalPolicy: props.removalPolicy,
      });
      // A role of its own that writes to its own log group, instead of the managed basic execution
      // role's logs:* on every group of the account.
      const role = new Role(this, `${def.name}-role`, {
        description: `Patrol ${props.stage}: the ${def.name} function`,
        assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      });
      logGroup.grantWrite(role);
      const fn = new NodejsFunction(this, def.name, {
        role,
        description: `Patrol ${props.stage}: ${def.name} (${def.entry})`,
        entry: path.join(props.repoRoot, def.entry),
        handler: 'handler',
        projectRoot: props.repoRoot,
        depsLockFilePath: path.join(props.repoRoot, 'package-lock.json'),
        runtime: Runtime.NODEJS_24_X,
        // Graviton is ~20 % cheaper per GB-second; the Chromium build only exists for x86_64.
        architecture: chromium ? Architecture.X86_64 : Architecture.ARM_64,
        memorySize: chromium ? Math.max(def.memoryMb, CHROMIUM_MIN_MEMORY_MB) : def.memoryMb,
        ephemeralStorageSize: chromium ? CHROMIUM_EPHEMERAL : undefined,
        timeout: Duration.seconds(def.timeoutSeconds),
        tracing: Tracing.ACTIVE,
        environment: { ...sharedEnv, POWERTOOLS_SERVICE_NAME: `patrol-${def.name}` },
        environmentEncryption: props.keys.key,
        logGroup,
        // A version is replaced by the next one's deploy, not kept for ever: each Chromium version is
        // ~80 MB of the account's 75 GB of code storage. A canary's rollback happens before that cleanup.
        currentVersionOptions: { removalPolicy: RemovalPolicy.DESTROY },
        // Only asynchronous invocations (rules, schedules, an operator's Event invoke) land here;
        // queue and stream consumers have their own dead letters, the API answers its caller.
        deadLetterQueue: props.queues.failures.asyncInvocations,
        bundling: {
          format: OutputFormat.ESM,
          target: 'node24',
          mainFields: ['module', 'main'],
          // CommonJS dependencies inside an ES module bundle still call require().
          banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
          minify: true,
          sourceMap: true,
          sourcesContent: false,
          // The SDK versions pinned in our lockfile, not whatever the runtime image carries this month.
          bundleAwsSDK: true,
          nodeModules: nodeModules.length ? nodeModules : undefined,
        },
      });
      grantAccess(def.access, fn, props);
      // currentVersion hashes the code and configuration: a deploy that changes neither publishes nothing.
      const live = new Alias(this, `${def.name}-live`, { aliasName: LIVE_ALIAS, version: fn.currentVersion });
      this.attachTrigger(def, live, props.queues, props.data, concurrency[def.name]);
      this.byName.set(def.name, fn);
      this.aliases.set(def.name, live);
    }
  }

  get(name: string): NodejsFunction {
    const fn = this.byName.get(name);
    if (!fn) throw new Error(`Lambda '${name}' is not declared in the registry's LAMBDAS`);
    return fn;
  }

  /** The deployed functions whose registry entry satisfies `test`. */
  where(test: (def: LambdaDef) => boolean): { def: LambdaDef; fn: NodejsFunction }[] {
    return this.defs.filter((d) => this.byName.has(d.name) && test(d)).map((def) => ({ def, fn: this.get(def.name) }));
  }

  /** A function's `live` alias, which its callers invoke. */
  live(name: string): Alias {
    const alias = this.aliases.get(name);
    if (!alias) throw new Error(`Lambda '${name}' is not declared in the registry's LAMBDAS`);
    return alias;
  }

  /** The registry name of the one function behind the HTTP API (callers take its `live` alias). */
  httpName(): string {
    const http = this.defs.filter((d) => d.trigger.type === 'http');
    if (http.length !== 1) {
      throw new Error(`Expected exactly one http Lambda in the registry, found ${http.length}`);
    }
    return http[0].name;
  }

  /** Known only once the web distribution exists, which itself needs the API in front of these functions. */
  setPublicUrl(url: string): void {
    for (const fn of this.byName.values()) fn.addEnvironment('PUBLIC_URL', url);
  }

  private attachTrigger(def: LambdaDef, fn: Alias, queues: Queues, data: Data, stageConcurrency?: number): void {
    const trigger = def.trigger;
    switch (trigger.type) {
      case 'http':
        return; // routed by the Api construct
      case 'sqs': {
        const { queue, def: queueDef } = queues.get(trigger.queue);
        if (queueDef.visibilityTimeout < def.timeoutSeconds) {
          throw new Error(
            `Queue '${queueDef.name}' hides messages for ${queueDef.visibilityTimeout} s but '${def.name}' may run ` +
              `${def.timeoutSeconds} s; a message would be delivered twice while still being processed`,
          );
        }
        fn.addEventSource(
          new SqsEventSource(queue, {
            batchSize: trigger.batchSize,
            // Report per message, or SQS re-delivers the whole batch and re-checks sites that already passed.
            reportBatchItemFailures: true,
            maxConcurrency: Math.max(MIN_SQS_CONCURRENCY, stageConcurrency ?? trigger.concurrency),
          }),
        );
        return;
      }
      case 'schedule': {
        if (trigger.everySeconds < 60 || trigger.everySeconds % 60 !== 0) {
          throw new Error(
            `Lambda '${def.name}' runs every ${trigger.everySeconds} s; EventBridge rates are whole minutes`,
          );
        }
        new Rule(this, `${def.name}-schedule`, {
          description: `Runs ${def.name} every ${trigger.everySeconds} s`,
          schedule: Schedule.rate(Duration.seconds(trigger.everySeconds)),
          targets: [
            new LambdaTarget(fn, {
              retryAttempts: 2,
              maxEventAge: Duration.minutes(5),
              deadLetterQueue: queues.failures.scheduleDeliveries,
            }),
          ],
        });
        return;
      }
      case 'stream':
        // Only the deletes DynamoDB's TTL makes: every other write moved its counters itself.
        fn.addEventSource(
          new DynamoEventSource(data.table, {
            startingPosition: StartingPosition.LATEST,
            batchSize: 100,
            retryAttempts: 5,
            reportBatchItemFailures: true,
            // What failed every retry is recorded (shard, sequence numbers) instead of skipped silently.
            onFailure: new SqsDlq(queues.failures.streamBatches),
            filters: [
              FilterCriteria.filter({
                eventName: FilterRule.isEqual('REMOVE'),
                userIdentity: { type: ['Service'], principalId: ['dynamodb.amazonaws.com'] },
              }),
            ],
          }),
        );
        return;
      case 'ruleSchedule':
        return; // invoked by the schedules the API keeps (RuleSchedules)
      case 'afterDeploy':
        return; // a CDK trigger the stack adds once the table exists (PatrolStack)
      case 'secretRotation':
        return; // Secrets Manager invokes it (Secrets.rotateWith, wired by the stack)
      case 'startup':
        return; // deployed only to be invoked by hand (deploysInCloud)
      default:
        throw new Error(`Lambda '${def.name}' has trigger type '${triggerType(def)}', which the CDK app does not know`);
    }
  }
}

/** The registry's `access` as IAM grants: what is not declared is not granted. */
function grantAccess(access: AccessDef, fn: NodejsFunction, props: FunctionsProps): void {
  if (access.table === 'readWrite') props.data.grantReadWrite(fn);
  else if (access.table === 'read') props.data.grantRead(fn);
  for (const prefix of access.videos?.readPrefixes ?? []) props.storage.grantRead(fn, prefix);
  for (const prefix of access.videos?.writePrefixes ?? []) props.storage.grantPut(fn, prefix);
  for (const prefix of access.videos?.deletePrefixes ?? []) props.storage.grantDelete(fn, prefix);
  for (const queue of access.sends ?? []) props.queues.grantSend(fn, queue);
  if (access.queueDepth) props.queues.grantDepthRead(fn);
  if (access.secrets === 'encryptDecrypt') props.keys.grantEncryptDecrypt(fn);
  else if (access.secrets === 'decrypt') props.keys.grantDecrypt(fn);
  for (const name of access.stageSecrets?.read ?? []) props.secrets.grantRead(name, fn);
  // Rotation (access.stageSecrets.rotate) and the distribution (access.distributionOrigin) are
  // wired by the stack: the rotation schedule and the distribution come after the functions.
}

/** Wider than the registry's union: trigger types may be added there before this app knows them. */
function triggerType(def: LambdaDef): string {
  return (def.trigger as { type: string }).type;
}
