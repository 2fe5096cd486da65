import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../shared/errors.js';
import { resetClients } from '../lib/aws/clients.js';
import { createApiHandler } from '../lib/http/apiHandler.js';
import { Router } from '../lib/http/router.js';
import { ORIGIN_VERIFY_HEADER } from './clientIp.js';
import { edgeCheck, resetOriginSecrets } from './originSecret.js';

const sm = mockClient(SecretsManagerClient);
const stages: Record<string, string | undefined> = {};
/** When each stage's version was made, where a test says so. */
const madeAt: Record<string, number | undefined> = {};

beforeAll(() => {
  delete process.env.ORIGIN_SECRET;
  process.env.ORIGIN_SECRET_ARN = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:origin-AbCdEf';
  resetClients();
  resetOriginSecrets();
  sm.on(GetSecretValueCommand).callsFake((input: { VersionStage: string }) => {
    const value = stages[input.VersionStage];
    if (value === undefined) throw new ResourceNotFoundException({ message: 'no such stage', $metadata: {} });
    const created = madeAt[input.VersionStage];
    return { SecretString: value, ...(created !== undefined ? { CreatedDate: new Date(created) } : {}) };
  });
});
afterAll(() => {
  sm.restore();
  delete process.env.ORIGIN_SECRET_ARN;
  resetClients();
  resetOriginSecrets();
});

const noLogin = async (): Promise<never> => {
  throw new Error('no route here needs a login');
};
const router = new Router().get('/health', () => ({ ok: true }), { access: 'public' });

function call(handler: ReturnType<typeof createApiHandler>, headers: Record<string, string>) {
  const event = {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/health',
    rawQueryString: '',
    headers,
    isBase64Encoded: false,
    requestContext: { requestId: 'r-1', http: { method: 'GET', path: '/health', sourceIp: '203.0.113.9' } },
  } as unknown as APIGatewayProxyEventV2;
  return handler(event, { awsRequestId: 'r-1' } as Context) as Promise<{ statusCode: number; body: string }>;
}

describe('the origin gate in the cloud', () => {
  it('refuses a request without the origin secret before any route runs, and lets CloudFront in', async () => {
    stages.AWSCURRENT = 'current-origin-value';
    const handler = createApiHandler(router, noLogin, undefined, edgeCheck());

    const direct = await call(handler, {});
    expect(direct.statusCode).toBe(403);
    expect(JSON.parse(direct.body)).toMatchObject({ code: ErrorCode.NotThroughEdge });
    const guessed = await call(handler, { [ORIGIN_VERIFY_HEADER]: 'a-guess' });
    expect(guessed.statusCode).toBe(403);

    const viaEdge = await call(handler, { [ORIGIN_VERIFY_HEADER]: 'current-origin-value' });
    expect(viaEdge.statusCode).toBe(200);
  });

  it('accepts the old and the new value while a rotation reaches every edge', async () => {
    stages.AWSCURRENT = 'value-two';
    stages.AWSPREVIOUS = 'value-one';
    stages.AWSPENDING = 'value-three';
    resetOriginSecrets();
    const handler = createApiHandler(router, noLogin, undefined, edgeCheck());
    for (const value of ['value-one', 'value-two', 'value-three']) {
      expect((await call(handler, { [ORIGIN_VERIFY_HEADER]: value })).statusCode, value).toBe(200);
    }
    expect((await call(handler, { [ORIGIN_VERIFY_HEADER]: 'value-zero' })).statusCode).toBe(403);
  });

  it('accepts the previous value for a token lifetime (12 h) after the rotation, then refuses it', async () => {
    const rotatedAt = Date.UTC(2026, 11, 7, 9, 0);
    stages.AWSCURRENT = 'value-new';
    stages.AWSPREVIOUS = 'value-leaked';
    stages.AWSPENDING = undefined;
    madeAt.AWSCURRENT = rotatedAt;
    let now = rotatedAt + 11 * 3_600_000;
    resetOriginSecrets();
    const handler = createApiHandler(
      router,
      noLogin,
      undefined,
      edgeCheck(() => now),
    );
    expect((await call(handler, { [ORIGIN_VERIFY_HEADER]: 'value-leaked' })).statusCode).toBe(200);
    now = rotatedAt + 12 * 3_600_000;
    expect((await call(handler, { [ORIGIN_VERIFY_HEADER]: 'value-leaked' })).statusCode).toBe(403);
    expect((await call(handler, { [ORIGIN_VERIFY_HEADER]: 'value-new' })).statusCode).toBe(200);
    // Revoked at once (the AWSPREVIOUS label taken off, docs/deploy.md): refused once the copy is read again.
    now = rotatedAt + 60_000;
    stages.AWSPREVIOUS = undefined;
    resetOriginSecrets();
    expect((await call(handler, { [ORIGIN_VERIFY_HEADER]: 'value-leaked' })).statusCode).toBe(403);
    madeAt.AWSCURRENT = undefined;
  });

  it('applies no gate where no origin secret is configured (the local stack)', () => {
    const saved = process.env.ORIGIN_SECRET_ARN;
    delete process.env.ORIGIN_SECRET_ARN;
    expect(edgeCheck()).toBeUndefined();
    process.env.ORIGIN_SECRET_ARN = saved;
  });
});
