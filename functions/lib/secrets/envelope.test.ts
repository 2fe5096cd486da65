import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, isEncryptedSecret, resetSecretKeys, SecretDecryptError } from './envelope.js';

const saved = { kms: process.env.KMS_KEY_ID, file: process.env.SECRETS_KEY_FILE };
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'patrol-secrets-'));
  delete process.env.KMS_KEY_ID;
  process.env.SECRETS_KEY_FILE = join(dir, 'keys', 'secrets.key');
  resetSecretKeys();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterAll(() => {
  if (saved.kms === undefined) delete process.env.KMS_KEY_ID;
  else process.env.KMS_KEY_ID = saved.kms;
  if (saved.file === undefined) delete process.env.SECRETS_KEY_FILE;
  else process.env.SECRETS_KEY_FILE = saved.file;
  resetSecretKeys();
});

/** Where the test secrets are stored. */
const PWD = { entity: 'site_account', id: 7, field: 'pwd' };

/** Flips one bit of the base64 part at `index` of a stored secret. */
function tamper(stored: string, index: number): string {
  const parts = stored.split('.');
  const bytes = Buffer.from(parts[index], 'base64');
  bytes[bytes.length - 1] ^= 1;
  parts[index] = bytes.toString('base64');
  return parts.join('.');
}

describe('secrets with the local key file', () => {
  it('gives back the plain text it encrypted, including unicode and empty text', async () => {
    for (const plain of ['hunter2', 'pässwörd 密码 🙂', '']) {
      const stored = await encryptSecret(plain, PWD);
      expect(await decryptSecret(stored, PWD)).toBe(plain);
    }
  });

  it('stores v2.<key>.<iv>.<tag>.<ciphertext> without the plain text in it', async () => {
    const stored = await encryptSecret('bank-password-123', PWD);
    expect(stored.split('.')).toHaveLength(5);
    expect(stored.startsWith('v2.')).toBe(true);
    expect(isEncryptedSecret(stored)).toBe(true);
    expect(stored).not.toContain('bank-password-123');
    expect(Buffer.from(stored.split('.')[4], 'base64').toString()).not.toContain('bank-password');
  });

  it('encrypts the same text differently each time', async () => {
    expect(await encryptSecret('same', PWD)).not.toBe(await encryptSecret('same', PWD));
  });

  it('refuses a stored secret whose ciphertext, tag, iv or wrapped key was altered', async () => {
    const stored = await encryptSecret('do-not-touch', PWD);
    for (const index of [1, 2, 3, 4]) {
      await expect(decryptSecret(tamper(stored, index), PWD)).rejects.toBeInstanceOf(SecretDecryptError);
    }
    await expect(decryptSecret('plain text', PWD)).rejects.toBeInstanceOf(SecretDecryptError);
  });

  it('creates a 32-byte key file readable only by its owner when none exists', async () => {
    await encryptSecret('x', PWD);
    const file = process.env.SECRETS_KEY_FILE as string;
    expect((await readFile(file)).length).toBe(32);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('decrypts in a new process with the same key file, and not with another one', async () => {
    const stored = await encryptSecret('survives restarts', PWD);
    resetSecretKeys();
    expect(await decryptSecret(stored, PWD)).toBe('survives restarts');

    const other = join(dir, 'other.key');
    await writeFile(other, randomBytes(32), { mode: 0o600 });
    process.env.SECRETS_KEY_FILE = other;
    resetSecretKeys();
    await expect(decryptSecret(stored, PWD)).rejects.toBeInstanceOf(SecretDecryptError);
  });

  it('reads a key file written as base64 text', async () => {
    const file = join(dir, 'text.key');
    await writeFile(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    process.env.SECRETS_KEY_FILE = file;
    resetSecretKeys();
    expect(await decryptSecret(await encryptSecret('b64 key', PWD), PWD)).toBe('b64 key');
  });

  it('refuses a key file that group or others can read, and says what to do', async () => {
    const file = join(dir, 'open.key');
    await writeFile(file, randomBytes(32), { mode: 0o644 });
    process.env.SECRETS_KEY_FILE = file;
    resetSecretKeys();
    await expect(encryptSecret('x', PWD)).rejects.toThrow(/readable by others \(mode 644\).*chmod 600/);
  });

  it('does not decrypt a ciphertext moved into another record or another field', async () => {
    const stored = await encryptSecret('site-7-password', PWD);
    await expect(decryptSecret(stored, { ...PWD, id: 8 })).rejects.toBeInstanceOf(SecretDecryptError);
    await expect(decryptSecret(stored, { ...PWD, field: 'user' })).rejects.toBeInstanceOf(SecretDecryptError);
    await expect(decryptSecret(stored, { entity: 'bank_account', id: 7, field: 'pwd' })).rejects.toBeInstanceOf(
      SecretDecryptError,
    );
    // Nor in a fresh process, where the data key has to be unwrapped for the wrong place.
    resetSecretKeys();
    await expect(decryptSecret(stored, { ...PWD, field: 'api_key' })).rejects.toBeInstanceOf(SecretDecryptError);
    expect(await decryptSecret(stored, PWD)).toBe('site-7-password');
  });

  it('refuses a secret stored before record binding (v1)', async () => {
    const v1 = (await encryptSecret('old', PWD)).replace(/^v2\./, 'v1.');
    await expect(decryptSecret(v1, PWD)).rejects.toThrow('enter it again');
  });

  it('says which setting is missing when neither KMS nor a key file is configured', async () => {
    delete process.env.SECRETS_KEY_FILE;
    resetSecretKeys();
    await expect(encryptSecret('x', PWD)).rejects.toThrow('KMS_KEY_ID or SECRETS_KEY_FILE');
  });
});

describe('secrets with KMS (cloud path)', () => {
  const kms = mockClient(KMSClient);
  const plainKey = randomBytes(32);
  const blob = Buffer.from('kms-wrapped-data-key-blob');

  beforeEach(() => {
    kms.reset();
    process.env.KMS_KEY_ID = 'alias/patrol-secrets';
    resetSecretKeys();
    kms.on(GenerateDataKeyCommand).resolves({ Plaintext: plainKey, CiphertextBlob: blob, KeyId: 'k' });
    kms.on(DecryptCommand).resolves({ Plaintext: plainKey, KeyId: 'k' });
  });
  afterAll(() => kms.restore());

  it('asks KMS for one data key per process and kind of secret, bound to its entity and field', async () => {
    const a = await encryptSecret('first', PWD);
    const b = await encryptSecret('second', PWD);
    expect(kms.commandCalls(GenerateDataKeyCommand)).toHaveLength(1);
    expect(kms.commandCalls(GenerateDataKeyCommand)[0].args[0].input).toMatchObject({
      KeyId: 'alias/patrol-secrets',
      KeySpec: 'AES_256',
      EncryptionContext: { purpose: 'patrol-secret', entity: 'site_account', field: 'pwd' },
    });
    expect(a.split('.')[1]).toBe(blob.toString('base64'));
    // The process knows its own key: no Decrypt call for what it wrote.
    expect(await decryptSecret(a, PWD)).toBe('first');
    expect(await decryptSecret(b, PWD)).toBe('second');
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(0);
  });

  it('unwraps a stored data key once per process and caches it by its blob', async () => {
    const a = await encryptSecret('one', PWD);
    const b = await encryptSecret('two', PWD);
    resetSecretKeys();
    expect(await Promise.all([decryptSecret(a, PWD), decryptSecret(b, PWD), decryptSecret(a, PWD)])).toEqual([
      'one',
      'two',
      'one',
    ]);
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(1);
    expect(kms.commandCalls(DecryptCommand)[0].args[0].input).toMatchObject({
      EncryptionContext: { purpose: 'patrol-secret', entity: 'site_account', field: 'pwd' },
    });
  });

  it('reports a KMS refusal as an unreadable secret and retries KMS next time', async () => {
    const stored = await encryptSecret('needs kms', PWD);
    resetSecretKeys();
    kms.on(DecryptCommand).rejectsOnce(new Error('AccessDeniedException')).resolves({ Plaintext: plainKey });
    await expect(decryptSecret(stored, PWD)).rejects.toBeInstanceOf(SecretDecryptError);
    expect(await decryptSecret(stored, PWD)).toBe('needs kms');
  });
});
