import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { configuredDataKeys, type DataKey, type DataKeyScope, type DataKeySource } from './dataKeys.js';

// Envelope encryption of secrets at rest (site and bank passwords, API keys, bot tokens):
//   v2.<b64 wrapped data key>.<b64 iv>.<b64 tag>.<b64 ciphertext>
// AES-256-GCM under a data key; the data key is wrapped by KMS in the cloud or by the
// local key file, so both write the same format. One data key per kind of secret serves the
// whole process (one GenerateDataKey per cold start and kind) and unwrapped keys are cached
// by their blob (one Decrypt per distinct key per process), keeping KMS off the hot path.
//
// Each ciphertext is bound to where it is stored: the data key to the entity and field (KMS
// encryption context), the ciphertext to the entity, record id and field (GCM additional data).
// A ciphertext copied into another row or another field does not decrypt.
//
// v1 secrets (before that binding) are refused, not migrated: they carry nothing that says which
// record they belong to, so reading them would keep the hole open. Re-enter such passwords.

const VERSION = 'v2';

/** Where a secret is stored: the record's kind and id, and the field. */
export interface SecretContext {
  entity: string;
  id: number | string;
  field: string;
}

/** A stored secret that cannot be read: tampered with, truncated, moved, or from another key. */
export class SecretDecryptError extends Error {
  override name = 'SecretDecryptError';
}

let source: DataKeySource | undefined;
const current = new Map<string, Promise<DataKey>>();
const unwrapped = new Map<string, Promise<Buffer>>();

function keySource(): DataKeySource {
  source ??= configuredDataKeys();
  return source;
}

const scopeOf = (ctx: SecretContext): DataKeyScope => ({ entity: ctx.entity, field: ctx.field });
const scopeKey = (scope: DataKeyScope) => `${scope.entity}\u0000${scope.field}`;

function assertContext(ctx: SecretContext): void {
  for (const part of [ctx.entity, String(ctx.id), ctx.field])
    if (!part || part.includes('\u0000')) throw new Error('A secret needs its entity, record id and field');
}

function currentKey(scope: DataKeyScope): Promise<DataKey> {
  const k = scopeKey(scope);
  let key = current.get(k);
  if (!key) {
    key = keySource()
      .generate(scope)
      .then((generated) => {
        unwrapped.set(`${k}\u0000${generated.wrapped.toString('base64')}`, Promise.resolve(generated.plain));
        return generated;
      })
      .catch((error) => {
        current.delete(k);
        throw error;
      });
    current.set(k, key);
  }
  return key;
}

function unwrap(wrappedB64: string, scope: DataKeyScope): Promise<Buffer> {
  // Keyed by scope too: a blob asked for under another scope must go to KMS and be refused there.
  const cacheKey = `${scopeKey(scope)}\u0000${wrappedB64}`;
  let key = unwrapped.get(cacheKey);
  if (!key) {
    key = keySource()
      .unwrap(Buffer.from(wrappedB64, 'base64'), scope)
      .catch((error) => {
        unwrapped.delete(cacheKey);
        throw new SecretDecryptError('The data key of a stored secret could not be unwrapped', { cause: error });
      });
    unwrapped.set(cacheKey, key);
  }
  return key;
}

// The header and the place of the secret are authenticated: moving it under another wrapped key,
// into another record or into another field fails the tag check.
const aad = (wrappedB64: string, ctx: SecretContext) =>
  Buffer.from([VERSION, wrappedB64, ctx.entity, String(ctx.id), ctx.field].join('\u0000'));

export async function encryptSecret(plain: string, ctx: SecretContext): Promise<string> {
  assertContext(ctx);
  const key = await currentKey(scopeOf(ctx));
  const wrappedB64 = key.wrapped.toString('base64');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.plain, iv);
  cipher.setAAD(aad(wrappedB64, ctx));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    VERSION,
    wrappedB64,
    iv.toString('base64'),
    cipher.getAuthTag().toString('base64'),
    body.toString('base64'),
  ].join('.');
}

export async function decryptSecret(stored: string, ctx: SecretContext): Promise<string> {
  assertContext(ctx);
  const parts = stored.split('.');
  if (parts[0] === 'v1') throw new SecretDecryptError('A secret stored before record binding (v1); enter it again');
  if (parts.length !== 5 || parts[0] !== VERSION) throw new SecretDecryptError('Not an encrypted secret');
  const [, wrappedB64, ivB64, tagB64, bodyB64] = parts;
  const iv = Buffer.from(ivB64, 'base64');
  const tag = Buffer.from(tagB64, 'base64');
  if (iv.length !== 12 || tag.length !== 16) throw new SecretDecryptError('Not an encrypted secret');
  const key = await unwrap(wrappedB64, scopeOf(ctx));
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(aad(wrappedB64, ctx));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(Buffer.from(bodyB64, 'base64')), decipher.final()]).toString('utf8');
  } catch (cause) {
    throw new SecretDecryptError('A stored secret failed its integrity check (altered, or not stored here)', {
      cause,
    });
  }
}

/** True for a value in the stored-secret format (e.g. to migrate plain values once). */
export function isEncryptedSecret(value: string): boolean {
  return /^v2\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]*$/.test(value);
}

/** Forgets cached keys and the configured source; for tests that change the configuration. */
export function resetSecretKeys(): void {
  source = undefined;
  current.clear();
  unwrapped.clear();
}
