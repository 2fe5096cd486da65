import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { dynamoClient, resetClients } from './clients.js';

/** The Authorization header the client would send, caught after signing and before the network. */
async function authorizationSent(): Promise<string> {
  const client = dynamoClient();
  let seen = '';
  client.middlewareStack.add(
    () => async (args) => {
      seen = String((args.request as { headers: Record<string, string> }).headers.authorization);
      throw new Error('caught before sending');
    },
    { step: 'deserialize', name: 'catchSigned' },
  );
  await expect(
    client.send(new GetItemCommand({ TableName: 'patrol', Key: { pk: { S: 'a' }, sk: { S: 'b' } } })),
  ).rejects.toThrow('caught before sending');
  return seen;
}

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  resetClients();
});

describe('AWS clients', () => {
  it('sign with SigV4 in the cloud, where no endpoint is configured', async () => {
    delete process.env.DYNAMO_ENDPOINT;
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_REGION: 'eu-west-1',
    });
    resetClients();
    expect(await authorizationSent()).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/dynamodb\/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$/,
    );
  });

  it('only stamp the header for a local engine, which never verifies it', async () => {
    Object.assign(process.env, {
      DYNAMO_ENDPOINT: 'http://127.0.0.1:1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_REGION: 'us-east-1',
    });
    resetClients();
    expect(await authorizationSent()).toMatch(
      /Credential=local\/\d{8}\/us-east-1\/dynamodb\/aws4_request, .*Signature=local$/,
    );
  });
});
