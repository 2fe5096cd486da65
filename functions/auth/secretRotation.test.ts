import {
  CloudFrontClient,
  type DistributionConfig,
  GetDistributionConfigCommand,
  UpdateDistributionCommand,
} from '@aws-sdk/client-cloudfront';
import {
  DescribeSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
  UpdateSecretVersionStageCommand,
} from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClients } from '../lib/aws/clients.js';
import { ORIGIN_VERIFY_HEADER } from './clientIp.js';
import { parseKeySecret } from './jwtKeys.js';
import { handler, type RotationEvent } from './secretRotation.js';

// Secrets Manager and CloudFront are cloud-only: both are played by in-memory fakes that keep
// versions and stages (and a distribution's config with its ETag) the way the services do.

const JWT_ARN = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:jwt-AbCdEf';
const ORIGIN_ARN = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:origin-AbCdEf';

type Version = { value?: string; stages: string[] };
const secrets = new Map<string, Map<string, Version>>();
const notFound = () => new ResourceNotFoundException({ message: 'not found', $metadata: {} });

function fakeSecretsManager() {
  const sm = mockClient(SecretsManagerClient);
  sm.on(DescribeSecretCommand).callsFake(({ SecretId }) => ({
    VersionIdsToStages: Object.fromEntries(
      [...(secrets.get(SecretId)?.entries() ?? [])].map(([id, v]) => [id, v.stages]),
    ),
  }));
  sm.on(GetSecretValueCommand).callsFake(({ SecretId, VersionId, VersionStage }) => {
    const versions = secrets.get(SecretId) ?? new Map();
    const found = [...versions.entries()].find(
      ([id, v]) => (!VersionId || id === VersionId) && (!VersionStage || v.stages.includes(VersionStage)),
    );
    if (!found?.[1].value) throw notFound();
    return { SecretString: found[1].value, VersionId: found[0] };
  });
  sm.on(PutSecretValueCommand).callsFake(({ SecretId, ClientRequestToken, SecretString, VersionStages }) => {
    const versions = secrets.get(SecretId) as Map<string, Version>;
    for (const v of versions.values()) v.stages = v.stages.filter((s) => !VersionStages.includes(s));
    versions.set(ClientRequestToken, { value: SecretString, stages: VersionStages });
    return {};
  });
  sm.on(UpdateSecretVersionStageCommand).callsFake(
    ({ SecretId, VersionStage, MoveToVersionId, RemoveFromVersionId }) => {
      const versions = secrets.get(SecretId) as Map<string, Version>;
      for (const v of versions.values()) v.stages = v.stages.filter((s) => s !== 'AWSPREVIOUS');
      const from = versions.get(RemoveFromVersionId) as Version;
      from.stages = [...from.stages.filter((s) => s !== VersionStage), 'AWSPREVIOUS'];
      const to = versions.get(MoveToVersionId) as Version;
      to.stages = [...to.stages.filter((s) => s !== 'AWSPENDING'), VersionStage];
      return {};
    },
  );
  return sm;
}

let distribution: { config: DistributionConfig; etag: number };
function fakeCloudFront() {
  const cf = mockClient(CloudFrontClient);
  cf.on(GetDistributionConfigCommand).callsFake(() => ({
    DistributionConfig: structuredClone(distribution.config),
    ETag: `E${distribution.etag}`,
  }));
  cf.on(UpdateDistributionCommand).callsFake(({ IfMatch, DistributionConfig }) => {
    if (IfMatch !== `E${distribution.etag}`) throw new Error('PreconditionFailed');
    distribution = { config: DistributionConfig, etag: distribution.etag + 1 };
    return {};
  });
  return cf;
}

const headerValues = () =>
  (distribution.config.Origins?.Items ?? []).flatMap((o) =>
    (o.CustomHeaders?.Items ?? []).filter((h) => h.HeaderName === ORIGIN_VERIFY_HEADER).map((h) => h.HeaderValue),
  );
const stageValue = (arn: string, stage: string) =>
  [...(secrets.get(arn)?.values() ?? [])].find((v) => v.stages.includes(stage))?.value;

/** What Secrets Manager does for one rotation: a pending version, then the four steps. */
async function rotate(arn: string, token: string) {
  secrets.get(arn)?.set(token, { stages: ['AWSPENDING'] });
  for (const Step of ['createSecret', 'setSecret', 'testSecret', 'finishSecret'] as const) {
    await handler({ SecretId: arn, ClientRequestToken: token, Step } satisfies RotationEvent);
  }
}

const sm = fakeSecretsManager();
const cf = fakeCloudFront();
let logged = '';

beforeAll(() => {
  process.env.JWT_SECRET_ARN = JWT_ARN;
  process.env.ORIGIN_SECRET_ARN = ORIGIN_ARN;
  process.env.DISTRIBUTION_ID = 'E2EXAMPLE';
  resetClients();
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    logged += String(chunk);
    return true;
  });
});
afterAll(() => {
  sm.restore();
  cf.restore();
  vi.restoreAllMocks();
  for (const k of ['JWT_SECRET_ARN', 'ORIGIN_SECRET_ARN', 'DISTRIBUTION_ID']) delete process.env[k];
  resetClients();
});
beforeEach(() => {
  secrets.set(
    JWT_ARN,
    new Map([['v1', { value: JSON.stringify({ kid: 'initial', key: 'k'.repeat(64) }), stages: ['AWSCURRENT'] }]]),
  );
  secrets.set(ORIGIN_ARN, new Map([['v1', { value: 'first-origin-value', stages: ['AWSCURRENT'] }]]));
  distribution = {
    etag: 1,
    config: {
      CallerReference: 'x',
      Comment: 'Patrol',
      Enabled: true,
      DefaultCacheBehavior: undefined as never,
      Origins: {
        Quantity: 2,
        Items: [
          { Id: 'console', DomainName: 'bucket.s3.amazonaws.com' },
          {
            Id: 'api',
            DomainName: 'api.example.com',
            CustomHeaders: {
              Quantity: 1,
              Items: [{ HeaderName: ORIGIN_VERIFY_HEADER, HeaderValue: 'first-origin-value' }],
            },
          },
        ],
      },
    } as DistributionConfig,
  };
  logged = '';
});

describe('rotating the JWT signing key', () => {
  it('makes a new key with a new kid current and keeps the old one as AWSPREVIOUS', async () => {
    await rotate(JWT_ARN, 'v2');

    const current = parseKeySecret(String(stageValue(JWT_ARN, 'AWSCURRENT')));
    const previous = parseKeySecret(String(stageValue(JWT_ARN, 'AWSPREVIOUS')));
    expect(previous.kid).toBe('initial');
    expect(current.kid).not.toBe('initial');
    expect(Buffer.from(current.secret).toString()).not.toBe('k'.repeat(64));
    expect(headerValues()).toEqual(['first-origin-value']);
    expect(logged).toContain('rotation step done');
    expect(logged).not.toContain(Buffer.from(current.secret).toString());
  });

  it('runs a step again without making a second key (Secrets Manager retries steps)', async () => {
    secrets.get(JWT_ARN)?.set('v2', { stages: ['AWSPENDING'] });
    await handler({ SecretId: JWT_ARN, ClientRequestToken: 'v2', Step: 'createSecret' });
    const first = stageValue(JWT_ARN, 'AWSPENDING');
    await handler({ SecretId: JWT_ARN, ClientRequestToken: 'v2', Step: 'createSecret' });
    expect(stageValue(JWT_ARN, 'AWSPENDING')).toBe(first);
  });
});

describe('rotating the origin secret', () => {
  it("puts the new value on the distribution's API origin before it becomes current", async () => {
    secrets.get(ORIGIN_ARN)?.set('v2', { stages: ['AWSPENDING'] });
    await handler({ SecretId: ORIGIN_ARN, ClientRequestToken: 'v2', Step: 'createSecret' });
    await handler({ SecretId: ORIGIN_ARN, ClientRequestToken: 'v2', Step: 'setSecret' });
    const pending = stageValue(ORIGIN_ARN, 'AWSPENDING');
    // CloudFront already sends the new value while the old one is still current: the API takes both.
    expect(headerValues()).toEqual([pending]);
    expect(stageValue(ORIGIN_ARN, 'AWSCURRENT')).toBe('first-origin-value');

    await handler({ SecretId: ORIGIN_ARN, ClientRequestToken: 'v2', Step: 'testSecret' });
    await handler({ SecretId: ORIGIN_ARN, ClientRequestToken: 'v2', Step: 'finishSecret' });
    expect(stageValue(ORIGIN_ARN, 'AWSCURRENT')).toBe(pending);
    expect(stageValue(ORIGIN_ARN, 'AWSPREVIOUS')).toBe('first-origin-value');
    expect(pending).toMatch(/^[\w-]{48}$/);
    expect(logged).not.toContain(String(pending));
  });

  it('refuses a secret it does not rotate', async () => {
    await expect(
      handler({
        SecretId: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:other',
        ClientRequestToken: 'v2',
        Step: 'createSecret',
      }),
    ).rejects.toThrow(/not one this function rotates/);
  });
});
