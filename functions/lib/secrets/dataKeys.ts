import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DecryptCommand, GenerateDataKeyCommand } from '@aws-sdk/client-kms';
import { kmsClient } from '../aws/clients.js';
import { config } from '../config.js';

/** A data key: `plain` encrypts secrets, `wrapped` is stored beside each ciphertext. */
export interface DataKey {
  plain: Buffer;
  wrapped: Buffer;
}

/**
 * What a data key is for: the kind of record and the field. It is the KMS encryption context
 * (and the local wrap's additional data), so a data key made for site passwords does not unwrap
 * for bank API keys. The record itself is bound by each ciphertext's additional data (envelope.ts):
 * a KMS context per record would cost a KMS call per secret written and read.
 */
export interface DataKeyScope {
  entity: string;
  field: string;
}

/** Where data keys come from: KMS in the cloud, a local key file on a developer machine. */
export interface DataKeySource {
  generate(scope: DataKeyScope): Promise<DataKey>;
  unwrap(wrapped: Buffer, scope: DataKeyScope): Promise<Buffer>;
}

const kmsContext = (scope: DataKeyScope) => ({ purpose: 'patrol-secret', entity: scope.entity, field: scope.field });

export function kmsDataKeys(keyId: string): DataKeySource {
  return {
    async generate(scope) {
      const out = await kmsClient().send(
        new GenerateDataKeyCommand({ KeyId: keyId, KeySpec: 'AES_256', EncryptionContext: kmsContext(scope) }),
      );
      if (!out.Plaintext || !out.CiphertextBlob) throw new Error('KMS GenerateDataKey returned no key');
      return { plain: Buffer.from(out.Plaintext), wrapped: Buffer.from(out.CiphertextBlob) };
    },
    async unwrap(wrapped, scope) {
      const out = await kmsClient().send(
        new DecryptCommand({ KeyId: keyId, CiphertextBlob: wrapped, EncryptionContext: kmsContext(scope) }),
      );
      if (!out.Plaintext) throw new Error('KMS Decrypt returned no key');
      return Buffer.from(out.Plaintext);
    },
  };
}

const MASTER_KEY_BYTES = 32;

/** Reads the local master key (raw 32 bytes, or the same as base64/hex text), creating it if absent. */
export async function readOrCreateKeyFile(path: string): Promise<Buffer> {
  try {
    const content = await readFile(path);
    await assertOwnerOnly(path);
    return decodeKeyFile(content, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dirname(path), { recursive: true });
  try {
    // 'wx': two processes starting together must not each write a different key.
    const handle = await open(path, 'wx', 0o600);
    try {
      await handle.writeFile(randomBytes(MASTER_KEY_BYTES));
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return decodeKeyFile(await readFile(path), path);
}

/**
 * A key file that group or others can read is refused, not fixed: it may already have been read,
 * and whoever has it reads every stored secret.
 */
async function assertOwnerOnly(path: string): Promise<void> {
  const { mode } = await stat(path);
  if (mode & 0o077)
    throw new Error(
      `Secrets key file ${path} is readable by others (mode ${(mode & 0o777).toString(8)}); treat it as leaked, or chmod 600 it if nobody read it`,
    );
}

function decodeKeyFile(content: Buffer, path: string): Buffer {
  if (content.length === MASTER_KEY_BYTES) return content;
  const text = content.toString('utf8').trim();
  if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, 'hex');
  const b64 = Buffer.from(text, 'base64');
  if (b64.length === MASTER_KEY_BYTES && /^[A-Za-z0-9+/]+=*$/.test(text)) return b64;
  throw new Error(`Secrets key file ${path} must hold 32 bytes`);
}

/** Local stand-in for KMS: the master key from the key file wraps each data key with AES-256-GCM. */
export function fileDataKeys(path: string): DataKeySource {
  let master: Promise<Buffer> | undefined;
  const masterKey = () => {
    master ??= readOrCreateKeyFile(path).catch((error) => {
      master = undefined;
      throw error;
    });
    return master;
  };
  // The same binding as the KMS encryption context, as additional data of the wrap.
  const wrapAad = (scope: DataKeyScope) => Buffer.from(JSON.stringify(kmsContext(scope)));
  return {
    async generate(scope) {
      const plain = randomBytes(32);
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', await masterKey(), iv);
      cipher.setAAD(wrapAad(scope));
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return { plain, wrapped: Buffer.concat([iv, cipher.getAuthTag(), body]) };
    },
    async unwrap(wrapped, scope) {
      if (wrapped.length !== 12 + 16 + 32) throw new Error('Wrapped data key has the wrong length');
      const decipher = createDecipheriv('aes-256-gcm', await masterKey(), wrapped.subarray(0, 12));
      decipher.setAAD(wrapAad(scope));
      decipher.setAuthTag(wrapped.subarray(12, 28));
      return Buffer.concat([decipher.update(wrapped.subarray(28)), decipher.final()]);
    },
  };
}

/** The source the configuration names: KMS_KEY_ID wins; otherwise SECRETS_KEY_FILE. */
export function configuredDataKeys(): DataKeySource {
  if (config.kmsKeyId) return kmsDataKeys(config.kmsKeyId);
  if (config.secretsKeyFile) return fileDataKeys(config.secretsKeyFile);
  throw new Error('Missing configuration: KMS_KEY_ID or SECRETS_KEY_FILE');
}
