import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { configuredDataKeys, type DataKey, type DataKeySource } from './dataKeys.js';

// Envelope encryption of secrets at rest (site and bank passwords, API keys, bot tokens):
//   v1.<b64 wrapped data key>.<b64 iv>.<b64 tag>.<b64 ciphertext>
// AES-256-GCM under a data key; the data key is wrapped by KMS in the cloud or by the
// local key file, so both write the same format. One data key serves the whole process
// (one GenerateDataKey per cold start) and unwrapped keys are cached by their blob
// (one Decrypt per distinct key per process), keeping KMS off the hot path.

const VERSION = 'v1';

/** A stored secret that cannot be read: tampered with, truncated, or from another key. */
export class SecretDecryptError extends Error {
  override name = 'SecretDecryptError';
}

let source: DataKeySource | undefined;
let current: Promise<DataKey> | undefined;
const unwrapped = new Map<string, Promise<Buffer>>();

function keySource(): DataKeySource {
  source ??= configuredDataKeys();
  return source;
}

function currentKey(): Promise<DataKey> {
  current ??= keySource()
    .generate()
    .then((key) => {
      unwrapped.set(key.wrapped.toString('base64'), Promise.resolve(key.plain));
      return key;
    })
    .catch((error) => {
      current = undefined;
      throw error;
    });
  return current;
}

function unwrap(wrappedB64: string): Promise<Buffer> {
  let key = unwrapped.get(wrappedB64);
  if (!key) {
    key = keySource()
      .unwrap(Buffer.from(wrappedB64, 'base64'))
      .catch((error) => {
        unwrapped.delete(wrappedB64);
        throw new SecretDecryptError('The data key of a stored secret could not be unwrapped', { cause: error });
      });
    unwrapped.set(wrappedB64, key);
  }
  return key;
}

// The header is authenticated too, so a ciphertext moved under another wrapped key fails.
const aad = (wrappedB64: string) => Buffer.from(`${VERSION}.${wrappedB64}`);

export async function encryptSecret(plain: string): Promise<string> {
  const key = await currentKey();
  const wrappedB64 = key.wrapped.toString('base64');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.plain, iv);
  cipher.setAAD(aad(wrappedB64));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    VERSION,
    wrappedB64,
    iv.toString('base64'),
    cipher.getAuthTag().toString('base64'),
    body.toString('base64'),
  ].join('.');
}

export async function decryptSecret(stored: string): Promise<string> {
  const parts = stored.split('.');
  if (parts.length !== 5 || parts[0] !== VERSION) throw new SecretDecryptError('Not an encrypted secret');
  const [, wrappedB64, ivB64, tagB64, bodyB64] = parts;
  const iv = Buffer.from(ivB64, 'base64');
  const tag = Buffer.from(tagB64, 'base64');
  if (iv.length !== 12 || tag.length !== 16) throw new SecretDecryptError('Not an encrypted secret');
  const key = await unwrap(wrappedB64);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(aad(wrappedB64));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(bodyB64, 'base64')), decipher.final()]).toString('utf8');
  } catch (cause) {
    throw new SecretDecryptError('A stored secret failed its integrity check', { cause });
  }
}

/** True for a value in the stored-secret format (e.g. to migrate plain values once). */
export function isEncryptedSecret(value: string): boolean {
  return /^v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]*$/.test(value);
}

/** Forgets cached keys and the configured source; for tests that change the configuration. */
export function resetSecretKeys(): void {
  source = undefined;
  current = undefined;
  unwrapped.clear();
}
