import { describe, expect, it } from 'vitest';
import { CHECK_EVIDENCE_PREFIX, deploysInCloud, LAMBDAS, QUEUES } from '../../functions/registry.js';
import { synthStack } from './synthStack.js';
import {
  allows,
  functionId,
  mappingsOf,
  ofType,
  resources,
  type Statement,
  statementsOfFunction,
} from './templateQueries.js';

// Each function gets what its registry entry declares (`access`), nothing more (issue 10, item 5).

const { template } = synthStack();
const [[tableId]] = ofType(template, 'AWS::DynamoDB::Table');
const [[keyId]] = ofType(template, 'AWS::KMS::Key');
const [[videosId]] = ofType(template, 'AWS::S3::Bucket').filter(([id]) => id.startsWith('StorageVideos'));
const sourceQueues = ofType(template, 'AWS::SQS::Queue').filter(([, q]) => q.Properties?.RedrivePolicy);
const statementsOf = (name: string) => statementsOfFunction(template, functionId(template, name));
/** The logical id of a secret of the Secrets construct, e.g. `JwtSecret`. */
const secretId = (name: string) => {
  const [[id]] = ofType(template, 'AWS::SecretsManager::Secret').filter(([sid]) => sid.startsWith(`Secrets${name}`));
  return id;
};

const actionsOn = (statements: Statement[], resourceId: string) =>
  statements
    .filter((s) => s.Effect === 'Allow' && JSON.stringify(s.Resource).includes(`"${resourceId}"`))
    .flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

describe('Grants follow the registry', () => {
  it('gives the reaper and the repair job the table and nothing of the key or the bucket', () => {
    for (const name of ['checkReaper', 'siteRepair']) {
      const statements = statementsOf(name);
      expect(allows(statements, 'dynamodb:UpdateItem', tableId), name).toBe(true);
      expect(actionsOn(statements, keyId), name).toEqual([]);
      expect(actionsOn(statements, videosId), name).toEqual([]);
      expect(
        statements.some((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]).some((a) => /^(kms|s3):/.test(a))),
        name,
      ).toBe(false);
    }
  });

  it('lets the reaper re-enqueue checks (and the chat deliveries of what it fails) and the repair job enqueue nothing', () => {
    const reaper = statementsOf('checkReaper');
    const repair = statementsOf('siteRepair');
    for (const [queueId] of sourceQueues) {
      // A subtask the reaper fails can end its operation, whose notification goes to the notify queue.
      const reaperSends = queueId.startsWith('Queuescheck') || queueId.startsWith('Queuesnotify');
      expect(allows(reaper, 'sqs:SendMessage', queueId), queueId).toBe(reaperSends);
      expect(allows(repair, 'sqs:SendMessage', queueId), queueId).toBe(false);
    }
  });

  it("lets the dashboard's refresher read every queue's depth (/metrics), and neither send nor receive", () => {
    const refresher = statementsOf('dashboardRefresh');
    for (const [queueId] of sourceQueues) {
      expect(allows(refresher, 'sqs:GetQueueAttributes', queueId), queueId).toBe(true);
      expect(allows(refresher, 'sqs:SendMessage', queueId), queueId).toBe(false);
      expect(allows(refresher, 'sqs:ReceiveMessage', queueId), queueId).toBe(false);
      // CDK's send grant carries GetQueueAttributes; a function that neither sends nor declares it has none.
      expect(allows(statementsOf('expirySweeper'), 'sqs:GetQueueAttributes', queueId), queueId).toBe(false);
    }
  });

  it('never lets the API delete or write a video', () => {
    const statements = statementsOf('api');
    for (const action of ['s3:DeleteObject', 's3:DeleteObjectVersion', 's3:PutObject']) {
      expect(allows(statements, action, videosId), action).toBe(false);
    }
    expect(allows(statements, 's3:GetObject', videosId)).toBe(true);
  });

  it('lets the checker write videos only under its prefix, and read or delete none', () => {
    const statements = statementsOf('checker');
    const s3 = statements.filter((s) => JSON.stringify(s.Resource).includes(`"${videosId}"`));
    expect(s3.length).toBeGreaterThan(0);
    for (const statement of s3) {
      const resource = JSON.stringify(statement.Resource);
      expect(resource).toContain(`/${CHECK_EVIDENCE_PREFIX}*`);
      const actions = (Array.isArray(statement.Action) ? statement.Action : [statement.Action]) as string[];
      expect(
        actions.some((a) => /^s3:(Get|Delete|List)/.test(a)),
        actions.join(),
      ).toBe(false);
    }
    expect(allows(statements, 's3:PutObject', videosId)).toBe(true);
  });

  it('lets the expiry sweeper and stream delete evidence files under the checks prefix only, and read or write none', () => {
    for (const name of ['expirySweeper', 'expiryStream']) {
      const statements = statementsOf(name);
      const s3 = statements.filter((s) => JSON.stringify(s.Resource).includes(`"${videosId}"`));
      expect(s3.length, name).toBeGreaterThan(0);
      for (const statement of s3) {
        expect(JSON.stringify(statement.Resource), name).toContain(`/${CHECK_EVIDENCE_PREFIX}*`);
        const actions = (Array.isArray(statement.Action) ? statement.Action : [statement.Action]) as string[];
        expect(
          actions.some((a) => /^s3:(Get|Put|List)/.test(a)),
          actions.join(),
        ).toBe(false);
      }
      expect(allows(statements, 's3:DeleteObject', videosId), name).toBe(true);
    }
  });

  it('gives the key only to the functions that declare secrets', () => {
    for (const def of LAMBDAS.filter(deploysInCloud)) {
      const decrypts = allows(statementsOf(def.name), 'kms:Decrypt', keyId);
      expect(decrypts, def.name).toBe(def.access.secrets !== undefined);
    }
  });

  it('lets each function read exactly the stage secrets it declares, named by ARN, never by value', () => {
    const secretIds: Record<string, string> = {
      jwtKeys: secretId('JwtSecret'),
      originSecret: secretId('OriginSecret'),
      adminPassword: secretId('AdminPassword'),
    };
    const envOf: Record<string, string> = {
      jwtKeys: 'JWT_SECRET_ARN',
      originSecret: 'ORIGIN_SECRET_ARN',
      adminPassword: 'ADMIN_PASSWORD_SECRET_ARN',
    };
    for (const def of LAMBDAS.filter(deploysInCloud)) {
      const statements = statementsOf(def.name);
      const vars = resources(template)[functionId(template, def.name)].Properties?.Environment?.Variables ?? {};
      const allowed = [...(def.access.stageSecrets?.read ?? []), ...(def.access.stageSecrets?.rotate ?? [])];
      for (const [name, id] of Object.entries(secretIds)) {
        expect(allows(statements, 'secretsmanager:GetSecretValue', id), `${def.name} ${name}`).toBe(
          allowed.includes(name as never),
        );
        expect(envOf[name] in vars, `${def.name} ${envOf[name]}`).toBe(allowed.includes(name as never));
      }
      // No secret's value in any function's configuration: the old JWT_SECRET and ORIGIN_SECRET are gone.
      expect(JSON.stringify(vars), def.name).not.toContain('{{resolve:secretsmanager');
      expect(vars, def.name).not.toHaveProperty('JWT_SECRET');
      expect(vars, def.name).not.toHaveProperty('ORIGIN_SECRET');
    }
    expect(LAMBDAS.find((l) => l.name === 'api')?.access.stageSecrets?.read).toEqual(['jwtKeys', 'originSecret']);
  });

  it('lets each function send only to the queues it declares', () => {
    for (const def of LAMBDAS.filter(deploysInCloud)) {
      const statements = statementsOf(def.name);
      const sendable = QUEUES.filter((q) =>
        sourceQueues.some(([id]) => id.startsWith(`Queues${q.name}`) && allows(statements, 'sqs:SendMessage', id)),
      ).map((q) => q.name);
      expect(sendable, def.name).toEqual([...(def.access.sends ?? [])]);
    }
  });
});

describe('Checker concurrency', () => {
  const mapping = (stage: string) => {
    const { template: t } = synthStack({ stage });
    const [esm] = mappingsOf(t, 'checker');
    return esm.Properties?.ScalingConfig.MaximumConcurrency;
  };

  it("comes from the stage in cdk.json, not from the deployer's shell", () => {
    const saved = process.env.CHECKER_CONCURRENCY;
    process.env.CHECKER_CONCURRENCY = '77';
    try {
      expect(mapping('dev')).toBe(4);
      expect(mapping('prod')).toBe(8);
    } finally {
      if (saved === undefined) delete process.env.CHECKER_CONCURRENCY;
      else process.env.CHECKER_CONCURRENCY = saved;
    }
    expect(Object.keys(resources(template)).length).toBeGreaterThan(0);
  });

  it('refuses a stage that sets the concurrency of a function that reads no queue', () => {
    expect(() => synthStack({ stageOverrides: { concurrency: { api: 4 } } })).toThrow(
      /concurrency of 'api', which is no queue consumer/,
    );
  });
});
