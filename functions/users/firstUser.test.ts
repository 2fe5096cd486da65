// The first-user trigger against the real local engine (dynalite) for the table, and a fake
// Secrets Manager (cloud only) that holds the password the stack generated.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emptyListQuery } from '../../shared/listQuery.js';
import { setupDynamo } from '../../tests/data/engine.js';
import { resetClients } from '../lib/aws/clients.js';
import { handler } from './firstUser.js';
import { verifyPassword } from './password.js';
import { dynamoUserStore } from './store.js';

setupDynamo();

const SECRET_ARN = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:admin-password-AbCdEf';
const PASSWORD = 'Generated4Deploy7pass';
const sm = mockClient(SecretsManagerClient);
let logged = '';

beforeAll(() => {
  process.env.ADMIN_PASSWORD_SECRET_ARN = SECRET_ARN;
  sm.on(GetSecretValueCommand, { SecretId: SECRET_ARN }).resolves({ SecretString: PASSWORD });
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      logged += String(chunk);
      return true;
    });
  }
});
afterAll(() => {
  sm.restore();
  vi.restoreAllMocks();
  delete process.env.ADMIN_PASSWORD_SECRET_ARN;
  resetClients();
});

describe('the first super user after a deploy', () => {
  it('creates admin once, on an empty table, with the password from the secret', async () => {
    const store = dynamoUserStore();
    expect(await store.hasAnyUser()).toBe(false);

    await expect(handler()).resolves.toEqual({ created: true });

    const admin = await store.findByUsername('admin');
    expect(admin).toMatchObject({ username: 'admin', role: 'super', enabled: true });
    expect(await verifyPassword(PASSWORD, String(admin?.password_hash))).toBe(true);
  });

  it('changes nothing on a later run, even after the password was changed', async () => {
    const store = dynamoUserStore();
    const before = await store.findByUsername('admin');
    await store.setPasswordHash(Number(before?.id), 'scrypt$changed-by-the-operator', { revokeTokens: false });

    await expect(handler()).resolves.toEqual({ created: false });

    const after = await store.findByUsername('admin');
    expect(after?.password_hash).toBe('scrypt$changed-by-the-operator');
    expect(after?.created_at).toBe(before?.created_at);
    expect((await store.list(emptyListQuery({ page_size: 0 }))).result).toHaveLength(1);
  });

  it('keeps the password in the secret only: nowhere in the logs', () => {
    expect(logged).toContain('created the first super user');
    expect(logged).not.toContain(PASSWORD);
  });
});
