import { createHash } from 'node:crypto';
import { cachedFor } from '../lib/cachedFor.js';
import { config } from '../lib/config.js';
import { secretStageValue } from '../lib/managedSecret.js';

// The keys that sign and verify login tokens (and key the captcha answers), with a key id (`kid`)
// in each token's header. Keys rotate: a new key signs from the moment it is current, and the one
// before it still verifies, so a token signed just before a rotation stays valid until it
// expires (12 h), as long as rotations are further apart than that (30 days by default).
//
// Where they come from, chosen by configuration:
// - cloud: the Secrets Manager secret JWT_SECRET_ARN, `{"kid": "...", "key": "..."}`; AWSCURRENT
//   signs, AWSPREVIOUS still verifies; rotated by functions/auth/secretRotation.ts;
// - locally: JWT_SECRET, the lines of DATA_DIR/jwt.key, `<kid> <key>`, newest first
//   (scripts/tools/rotateJwtKey.ts adds one and keeps the one before).

export interface JwtKey {
  kid: string;
  /** HMAC key material. */
  secret: Uint8Array;
}

export interface JwtKeyRing {
  /** Signs new tokens. */
  signing: JwtKey;
  /** Verify: the signing key first, then the previous one. */
  verifying: JwtKey[];
}

/** How long a Lambda instance trusts the keys it read; a rotation reaches every instance within it. */
export const KEY_CACHE_MS = 5 * 60_000;
/** An unknown kid (a key newer than this instance's copy) reads again, at most this often. */
const UNKNOWN_KID_REREAD_MS = 30_000;

const encoder = new TextEncoder();

/** A key written without an id (a key file older than key ids): its id is derived from it. */
export const derivedKid = (key: string): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

/** `<kid> <key>` lines, newest first; a line with one word is a bare key. Blank lines are skipped. */
export function parseKeyLines(text: string): JwtKey[] {
  const keys = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [first, second] = line.split(/\s+/);
      const [kid, key] = second === undefined ? [derivedKid(first), first] : [first, second];
      return { kid, secret: encoder.encode(key) };
    });
  if (keys.length === 0) throw new Error('No JWT signing key configured');
  return keys;
}

/** The secret's JSON, `{kid, key}`, as a key. */
export function parseKeySecret(json: string): JwtKey {
  const parsed = JSON.parse(json) as { kid?: unknown; key?: unknown };
  if (typeof parsed.kid !== 'string' || !parsed.kid || typeof parsed.key !== 'string' || parsed.key.length < 32) {
    throw new Error('The JWT key secret is not {"kid": "...", "key": "<32+ characters>"}');
  }
  return { kid: parsed.kid, secret: encoder.encode(parsed.key) };
}

async function readRing(): Promise<JwtKeyRing> {
  const arn = config.jwtSecretArn;
  if (!arn) {
    const keys = parseKeyLines(config.jwtSecret);
    return { signing: keys[0], verifying: keys };
  }
  const [current, previous] = await Promise.all([
    secretStageValue(arn, 'AWSCURRENT'),
    secretStageValue(arn, 'AWSPREVIOUS'),
  ]);
  if (!current) throw new Error('The JWT key secret has no current value');
  const signing = parseKeySecret(current);
  const before = previous ? parseKeySecret(previous) : undefined;
  return { signing, verifying: before && before.kid !== signing.kid ? [signing, before] : [signing] };
}

let ring = cachedFor(readRing, { ttlMs: KEY_CACHE_MS });
let lastReread = 0;

export const jwtKeyRing = (): Promise<JwtKeyRing> => ring.get();

/**
 * The key a token names. A kid this instance does not know may be a key rotated in since it read
 * the ring: it reads again (rarely, so forged kids cannot make every request call Secrets Manager).
 */
export async function verifyingKey(kid: string, now = Date.now()): Promise<JwtKey | undefined> {
  const found = (await ring.get()).verifying.find((k) => k.kid === kid);
  if (found || now - lastReread < UNKNOWN_KID_REREAD_MS) return found;
  lastReread = now;
  ring.invalidate();
  return (await ring.get()).verifying.find((k) => k.kid === kid);
}

/** For tests that change the configuration between cases. */
export function resetJwtKeys(): void {
  ring = cachedFor(readRing, { ttlMs: KEY_CACHE_MS });
  lastReread = 0;
}
