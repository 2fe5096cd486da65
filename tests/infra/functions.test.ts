import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_MIN_MEMORY_MB } from '../../infra/constructs/Functions.js';
import { LAMBDAS, type LambdaDef, QUEUES } from '../../functions/registry.js';
import { resolveStageConfig } from '../../infra/stageConfig.js';
import { cdkContext, synthStack } from './synthStack.js';
import {
  allows,
  functionId,
  liveAliasId,
  mappingsOf,
  ofType,
  resources,
  statementsOfFunction,
} from './templateQueries.js';

const api = LAMBDAS.find((l) => l.name === 'api')!;

// Entries other engineers will add later; the construct must deploy them without a code change.
const fakeChecker: LambdaDef = {
  name: 'fake-checker',
  entry: 'functions/api.ts',
  trigger: { type: 'sqs', queue: 'check', batchSize: 1, concurrency: 4 },
  memoryMb: 1600,
  timeoutSeconds: 150,
  chromium: true,
  access: { table: 'readWrite' },
};
const fakeNotifier: LambdaDef = {
  name: 'fake-notifier',
  entry: 'functions/api.ts',
  trigger: { type: 'sqs', queue: 'notify', batchSize: 10, concurrency: 1 },
  memoryMb: 256,
  timeoutSeconds: 30,
  access: { sends: ['check'] },
};
const fakeSweep: LambdaDef = {
  name: 'fake-sweep',
  entry: 'functions/api.ts',
  trigger: { type: 'schedule', everySeconds: 300 },
  memoryMb: 512,
  timeoutSeconds: 60,
  access: {},
};
const fakeStartup = {
  name: 'fake-startup',
  entry: 'functions/api.ts',
  trigger: { type: 'startup' },
  memoryMb: 256,
  timeoutSeconds: 60,
} as unknown as LambdaDef;

/** EventBridge's own spelling of a rate: the largest whole unit, singular for 1. */
function rateExpression(seconds: number): string {
  const [n, unit] =
    seconds % 86_400 === 0
      ? [seconds / 86_400, 'day']
      : seconds % 3600 === 0
        ? [seconds / 3600, 'hour']
        : [seconds / 60, 'minute'];
  return `rate(${n} ${unit}${n === 1 ? '' : 's'})`;
}

function withLambdas(...extra: LambdaDef[]) {
  return synthStack({ registry: { lambdas: [...LAMBDAS, ...extra], queues: QUEUES } });
}

describe('Functions: the api Lambda of the registry', () => {
  const { template } = synthStack();
  const apiId = functionId(template, 'api');
  const fn = resources(template)[apiId].Properties!;

  it('runs on the Node major the tests run on, on arm64 with the memory and timeout of the registry, traced', () => {
    expect(fn).toMatchObject({
      Runtime: `nodejs${process.versions.node.split('.')[0]}.x`,
      Architectures: ['arm64'],
      MemorySize: api.memoryMb,
      Timeout: api.timeoutSeconds,
      TracingConfig: { Mode: 'Active' },
      Handler: 'index.handler',
    });
  });

  it('receives every variable functions/lib/config.ts reads, and no CHROMIUM_PATH', () => {
    const vars = fn.Environment.Variables;
    const expected = [
      'TABLE_NAME',
      'VIDEO_BUCKET',
      'KMS_KEY_ID',
      'PUBLIC_URL',
      'POWERTOOLS_SERVICE_NAME',
      'LOG_LEVEL',
      'JWT_SECRET_ARN',
      'ORIGIN_SECRET_ARN',
      'POWERTOOLS_METRICS_NAMESPACE',
      'PATROL_STAGE',
      ...QUEUES.map((q) => `${q.name.toUpperCase()}_QUEUE_URL`),
    ];
    expect(Object.keys(vars)).toEqual(expect.arrayContaining(expected));
    expect(vars).not.toHaveProperty('CHROMIUM_PATH');
    expect(vars.LOG_LEVEL).toBe('DEBUG');
    expect(JSON.stringify(vars.PUBLIC_URL)).toContain('WebDistribution');
  });

  it("reads the JWT key from Secrets Manager at run time: the secret's ARN in its environment, {kid, key} in the secret", () => {
    const [[secretId]] = ofType(template, 'AWS::SecretsManager::Secret').filter(([id]) =>
      id.startsWith('SecretsJwtSecret'),
    );
    expect(fn.Environment.Variables.JWT_SECRET_ARN).toEqual({ Ref: secretId });
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({
        PasswordLength: 64,
        GenerateStringKey: 'key',
        SecretStringTemplate: JSON.stringify({ kid: 'initial' }),
      }),
    });
  });

  it('encrypts its environment with the stack key', () => {
    const [[keyId]] = ofType(template, 'AWS::KMS::Key');
    expect(fn.KmsKeyArn).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
  });

  it('can read and write the table and its indexes', () => {
    const statements = statementsOfFunction(template, apiId);
    const [[tableId]] = ofType(template, 'AWS::DynamoDB::Table');
    for (const action of ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'BatchWriteItem']) {
      expect(allows(statements, `dynamodb:${action}`, tableId), action).toBe(true);
    }
    const tableStatement = statements.find((s) => JSON.stringify(s.Resource).includes(tableId));
    expect(JSON.stringify(tableStatement?.Resource)).toContain('/index/*');
  });

  it('can make data keys and decrypt them with the secrets key, exactly the calls of envelope encryption', () => {
    const statements = statementsOfFunction(template, apiId);
    const [[keyId]] = ofType(template, 'AWS::KMS::Key');
    for (const action of ['kms:Decrypt', 'kms:GenerateDataKey']) {
      expect(allows(statements, action, keyId), action).toBe(true);
    }
    const onKey = statements.filter((s) => JSON.stringify(s.Resource).includes(keyId));
    expect(onKey.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action])).sort()).toEqual([
      'kms:Decrypt',
      'kms:GenerateDataKey',
    ]);
    template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
  });

  // Issue 10 narrowed this: the API reads videos (to sign their addresses) but writes or deletes
  // none, and enqueues on the check queue and (issue 13: an enabled or re-timed bank account is
  // polled at once) the bank queue only (its registry `access`).
  it('can read videos but not write or delete them, and enqueue checks, bank polls and bank deliveries (replay, inbound webhook), but consume nothing', () => {
    const statements = statementsOfFunction(template, apiId);
    const [[bucketId]] = ofType(template, 'AWS::S3::Bucket').filter(([id]) => id.startsWith('Storage'));
    expect(allows(statements, 's3:GetObject', bucketId)).toBe(true);
    expect(allows(statements, 's3:PutObject', bucketId)).toBe(false);
    expect(allows(statements, 's3:DeleteObject', bucketId)).toBe(false);
    for (const [queueId] of ofType(template, 'AWS::SQS::Queue').filter(([, q]) => q.Properties?.RedrivePolicy)) {
      expect(allows(statements, 'sqs:SendMessage', queueId), queueId).toBe(
        queueId.startsWith('Queuescheck') || queueId.startsWith('Queuesbank') || queueId.startsWith('Queuesnotify'),
      );
      expect(allows(statements, 'sqs:ReceiveMessage', queueId)).toBe(false);
    }
  });

  it('keeps its logs for the stage retention', () => {
    const logGroupId = fn.LoggingConfig.LogGroup.Ref;
    expect(resources(template)[logGroupId].Properties?.RetentionInDays).toBe(14);
  });
});

describe('Functions: entries added to the registry later', () => {
  const stageConcurrency = resolveStageConfig(cdkContext.stages, 'dev').concurrency;
  const { template } = withLambdas(fakeChecker, fakeNotifier, fakeSweep, fakeStartup);

  const all = [...LAMBDAS, fakeChecker, fakeNotifier, fakeSweep];

  it('deploys every sqs entry with an event source that reports batch item failures', () => {
    const consumers = all.filter((l) => l.trigger.type === 'sqs');
    const streams = all.filter((l) => l.trigger.type === 'stream');
    expect(ofType(template, 'AWS::Lambda::EventSourceMapping')).toHaveLength(consumers.length + streams.length);
    for (const def of consumers) {
      const trigger = def.trigger as Extract<LambdaDef['trigger'], { type: 'sqs' }>;
      // Through the live alias: a release moves the alias, the mapping stays.
      const [mapping] = mappingsOf(template, def.name);
      expect(mapping?.Properties, def.name).toMatchObject({
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        BatchSize: trigger.batchSize,
        ScalingConfig: { MaximumConcurrency: Math.max(2, stageConcurrency[def.name] ?? trigger.concurrency) },
        EventSourceArn: { 'Fn::GetAtt': [expect.stringMatching(`^Queues${trigger.queue}[0-9A-F]{8}$`), 'Arn'] },
      });
    }
  });

  it('feeds the stream entry only the deletes DynamoDB TTL makes, reporting batch item failures', () => {
    for (const def of all.filter((l) => l.trigger.type === 'stream')) {
      const [mapping] = mappingsOf(template, def.name);
      expect(mapping?.Properties, def.name).toMatchObject({
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        FilterCriteria: {
          Filters: [{ Pattern: expect.stringMatching('"principalId":\\["dynamodb.amazonaws.com"\\]') }],
        },
      });
    }
  });

  it('lets a consumer receive from its own queue only', () => {
    const statements = statementsOfFunction(template, functionId(template, 'fake-notifier'));
    const sources = ofType(template, 'AWS::SQS::Queue').filter(([, q]) => q.Properties?.RedrivePolicy);
    const receivable = sources.filter(([id]) => allows(statements, 'sqs:ReceiveMessage', id)).map(([id]) => id);
    expect(receivable).toEqual([expect.stringMatching(/^Queuesnotify/)]);
  });

  it('runs every schedule entry from an EventBridge rule at the registry rate', () => {
    const scheduled = all.filter((l) => l.trigger.type === 'schedule');
    expect(ofType(template, 'AWS::Events::Rule')).toHaveLength(scheduled.length);
    for (const def of scheduled) {
      const { everySeconds } = def.trigger as Extract<LambdaDef['trigger'], { type: 'schedule' }>;
      template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: rateExpression(everySeconds),
        State: 'ENABLED',
        Targets: [Match.objectLike({ Arn: { Ref: liveAliasId(template, def.name) } })],
      });
    }
  });

  it('gives Chromium functions x86_64, at least 2048 MB and room in /tmp, without CHROMIUM_PATH', () => {
    const fn = resources(template)[functionId(template, 'fake-checker')].Properties!;
    expect(fn).toMatchObject({
      Architectures: ['x86_64'],
      MemorySize: CHROMIUM_MIN_MEMORY_MB,
      Timeout: fakeChecker.timeoutSeconds,
      EphemeralStorage: { Size: 2048 },
    });
    expect(fn.Environment.Variables).not.toHaveProperty('CHROMIUM_PATH');
    expect(fn.Environment.Variables).not.toHaveProperty('JWT_SECRET');
  });

  it('creates nothing in the cloud for a startup entry, and a function with no trigger for one run by hand there', () => {
    expect(() => functionId(template, 'fake-startup')).toThrow(/found 0/);
    const repair = withLambdas({
      ...fakeStartup,
      name: 'fake-repair',
      trigger: { type: 'startup', inCloud: 'byHand' },
      access: { table: 'readWrite' },
    });
    const repairId = functionId(repair.template, 'fake-repair');
    expect(
      ofType(repair.template, 'AWS::Lambda::EventSourceMapping').some(([, m]) =>
        JSON.stringify(m.Properties?.FunctionName).includes(repairId),
      ),
    ).toBe(false);
    expect(
      ofType(repair.template, 'AWS::Events::Rule').some(([, r]) => JSON.stringify(r.Properties).includes(repairId)),
    ).toBe(false);
    expect(ofType(template, 'AWS::Lambda::Function').length).toBe(
      ofType(withLambdas().template, 'AWS::Lambda::Function').length + 3,
    );
  });
});

describe('Functions: registry entries the cloud cannot run', () => {
  it('refuses a consumer that may outlive its queue visibility timeout', () => {
    const slow = { ...fakeNotifier, name: 'slow', timeoutSeconds: 90 };
    expect(() => withLambdas(slow)).toThrow(/notify' hides messages for 60 s but 'slow' may run 90 s/);
  });

  it('refuses a schedule that is not a whole number of minutes', () => {
    const fast = { ...fakeSweep, name: 'fast', trigger: { type: 'schedule' as const, everySeconds: 30 } };
    expect(() => withLambdas(fast)).toThrow(/every 30 s; EventBridge rates are whole minutes/);
  });

  it('refuses a consumer of a queue the registry does not declare', () => {
    const lost = {
      ...fakeNotifier,
      name: 'lost',
      trigger: { ...fakeNotifier.trigger, queue: 'nope' },
    } as unknown as LambdaDef;
    expect(() => withLambdas(lost)).toThrow(/Queue 'nope' is not declared/);
  });

  it('refuses a trigger type it does not know instead of deploying an unreachable function', () => {
    const odd = { ...fakeSweep, name: 'odd', trigger: { type: 'webhook' } } as unknown as LambdaDef;
    expect(() => withLambdas(odd)).toThrow(/trigger type 'webhook'/);
  });
});
