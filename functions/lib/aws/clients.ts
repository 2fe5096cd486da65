import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.js';
import { writeFaults } from '../db/faults.js';
import { localSigner } from './localSigner.js';

// One client of each kind per process, created on first use so that the local runner can
// set the endpoints before any handler module touches them.
let dynamo: DynamoDBDocumentClient | undefined;
let sqs: SQSClient | undefined;
let s3: S3Client | undefined;
let kms: KMSClient | undefined;
let secretsManager: SecretsManagerClient | undefined;

/** The crash tests' fault hook (lib/db/faults.ts): passes everything through unless a test armed it. */
const FAULTS = { step: 'initialize', name: 'writeFaults' } as const;

export function dynamoClient(): DynamoDBDocumentClient {
  if (!dynamo) {
    dynamo = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        region: config.region,
        endpoint: config.dynamoEndpoint,
        maxAttempts: 5,
        // An endpoint is set only for the local engines, which do not verify signatures.
        ...(config.dynamoEndpoint ? { signer: localSigner('dynamodb', config.region) } : {}),
      }),
      { marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: true } },
    );
    dynamo.middlewareStack.add(writeFaults as never, FAULTS);
  }
  return dynamo;
}

export function sqsClient(): SQSClient {
  if (!sqs) {
    sqs = new SQSClient({
      region: config.region,
      endpoint: config.sqsEndpoint,
      ...(config.sqsEndpoint ? { signer: localSigner('sqs', config.region) } : {}),
    });
    sqs.middlewareStack.add(writeFaults as never, FAULTS);
  }
  return sqs;
}

export function s3Client(): S3Client {
  s3 ??= new S3Client({
    region: config.region,
    endpoint: config.s3Endpoint,
    forcePathStyle: Boolean(config.s3Endpoint),
  });
  return s3;
}

export function kmsClient(): KMSClient {
  kms ??= new KMSClient({ region: config.region });
  return kms;
}

/** Cloud only: the JWT keys, the origin secret and the admin's first password (functions/lib/managedSecret.ts). */
export function secretsManagerClient(): SecretsManagerClient {
  secretsManager ??= new SecretsManagerClient({ region: config.region });
  return secretsManager;
}

/** For tests that point a fresh process at other endpoints. */
export function resetClients(): void {
  dynamo = undefined;
  sqs = undefined;
  s3 = undefined;
  kms = undefined;
  secretsManager = undefined;
}
