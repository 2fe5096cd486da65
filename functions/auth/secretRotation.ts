import { randomBytes } from 'node:crypto';
import { CloudFrontClient, GetDistributionConfigCommand, UpdateDistributionCommand } from '@aws-sdk/client-cloudfront';
import {
  DescribeSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  UpdateSecretVersionStageCommand,
} from '@aws-sdk/client-secrets-manager';
import { secretsManagerClient } from '../lib/aws/clients.js';
import { config } from '../lib/config.js';
import { logger } from '../lib/logger.js';
import { ORIGIN_VERIFY_HEADER } from './clientIp.js';
import { parseKeySecret } from './jwtKeys.js';

// Secrets Manager's rotation of the stage's two secrets, one function for both (the event names
// the secret). The four steps are Secrets Manager's own protocol: each may run again after a
// failure, so each checks what is already done.
//
// - JWT signing key: a new `{kid, key}` becomes AWSCURRENT; the old one becomes AWSPREVIOUS and
//   keeps verifying tokens until they expire (functions/auth/jwtKeys.ts).
// - Origin secret: the new value is put on the distribution's API origins (setSecret) before it
//   becomes current; the API accepts the pending, current and previous values meanwhile
//   (functions/auth/originSecret.ts), because CloudFront's edges take minutes to change over.

export interface RotationEvent {
  SecretId: string;
  ClientRequestToken: string;
  Step: 'createSecret' | 'setSecret' | 'testSecret' | 'finishSecret';
}

type Kind = 'jwt' | 'origin';

let cloudFront: CloudFrontClient | undefined;
/** CloudFront's API lives in us-east-1 whatever region calls it. */
const cloudFrontClient = () => {
  cloudFront ??= new CloudFrontClient({ region: 'us-east-1' });
  return cloudFront;
};

function kindOf(secretId: string): Kind {
  if (secretId === process.env.JWT_SECRET_ARN) return 'jwt';
  if (secretId === process.env.ORIGIN_SECRET_ARN) return 'origin';
  throw new Error(`Secret ${secretId} is not one this function rotates`);
}

/** A new value of the kind's shape: the JWT secret is JSON with a key id. */
export function newSecretValue(kind: Kind): string {
  if (kind === 'origin') return randomBytes(36).toString('base64url');
  return JSON.stringify({ kid: randomBytes(6).toString('hex'), key: randomBytes(48).toString('base64url') });
}

async function pendingValue(secretId: string, token: string): Promise<string | undefined> {
  try {
    const out = await secretsManagerClient().send(
      new GetSecretValueCommand({ SecretId: secretId, VersionId: token, VersionStage: 'AWSPENDING' }),
    );
    return out.SecretString;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}

async function createSecret(secretId: string, token: string, kind: Kind): Promise<void> {
  if (await pendingValue(secretId, token)) return;
  await secretsManagerClient().send(
    new PutSecretValueCommand({
      SecretId: secretId,
      ClientRequestToken: token,
      SecretString: newSecretValue(kind),
      VersionStages: ['AWSPENDING'],
    }),
  );
}

/** Puts `value` in the origin-verify header of every origin of the distribution that carries it. */
async function setOriginHeader(value: string): Promise<void> {
  const id = config.distributionId;
  const { DistributionConfig, ETag } = await cloudFrontClient().send(new GetDistributionConfigCommand({ Id: id }));
  if (!DistributionConfig) throw new Error(`Distribution ${id} has no configuration`);
  let changed = 0;
  for (const origin of DistributionConfig.Origins?.Items ?? []) {
    for (const header of origin.CustomHeaders?.Items ?? []) {
      if (header.HeaderName?.toLowerCase() === ORIGIN_VERIFY_HEADER && header.HeaderValue !== value) {
        header.HeaderValue = value;
        changed++;
      }
    }
  }
  if (changed === 0) return;
  await cloudFrontClient().send(new UpdateDistributionCommand({ Id: id, IfMatch: ETag, DistributionConfig }));
}

async function finishSecret(secretId: string, token: string): Promise<void> {
  const described = await secretsManagerClient().send(new DescribeSecretCommand({ SecretId: secretId }));
  const current = Object.entries(described.VersionIdsToStages ?? {}).find(([, stages]) =>
    stages.includes('AWSCURRENT'),
  )?.[0];
  if (current === token) return;
  await secretsManagerClient().send(
    new UpdateSecretVersionStageCommand({
      SecretId: secretId,
      VersionStage: 'AWSCURRENT',
      MoveToVersionId: token,
      RemoveFromVersionId: current,
    }),
  );
}

export async function handler(event: RotationEvent): Promise<void> {
  const { SecretId: secretId, ClientRequestToken: token, Step: step } = event;
  const kind = kindOf(secretId);
  const described = await secretsManagerClient().send(new DescribeSecretCommand({ SecretId: secretId }));
  const stages = described.VersionIdsToStages?.[token];
  if (!stages) throw new Error(`Version ${token} of ${secretId} does not exist`);
  if (stages.includes('AWSCURRENT') && !stages.includes('AWSPENDING')) {
    logger.info('rotation already finished', { kind, step });
    return;
  }
  if (!stages.includes('AWSPENDING')) throw new Error(`Version ${token} of ${secretId} is not pending`);

  switch (step) {
    case 'createSecret':
      await createSecret(secretId, token, kind);
      break;
    case 'setSecret':
      if (kind === 'origin') await setOriginHeader(String(await pendingValue(secretId, token)));
      break;
    case 'testSecret': {
      // The pending value is one the readers accept: a JWT key parses; an origin value is not empty.
      const value = await pendingValue(secretId, token);
      if (!value) throw new Error(`Version ${token} of ${secretId} has no value`);
      if (kind === 'jwt') parseKeySecret(value);
      break;
    }
    case 'finishSecret':
      await finishSecret(secretId, token);
      break;
    default:
      throw new Error(`Unknown rotation step '${String(step)}'`);
  }
  // The value itself is never logged.
  logger.info('rotation step done', { kind, step, version: token });
}
