import { createHash } from 'node:crypto';
import { cachedFor } from '../lib/cachedFor.js';
import { config } from '../lib/config.js';
import { secretStageValue, secretStageVersion } from '../lib/managedSecret.js';

// The keys that sign and verify login tokens (and key the captcha answers), with a key id (`kid`)
// in each token's header. Keys rotate: a new key signs from the moment it is current, and the one
// before it still verifies for a token's lifetime (12 h) after the rotation and no longer (issue
// 43), so a token signed just before a rotation stays valid until it expires, and a leaked key is
// shut out half a day after an emergency rotation, not at the next one (30 days by default).
//
// Where they come from, chosen by configuration:
// - cloud: the Secrets Manager secret JWT_SECRET_ARN, `{"kid": "...", "key": "..."}`; AWSCURRENT
//   signs, AWSPREVIOUS verifies until AWSCURRENT's version is a token lifetime old (its CreatedDate);
//   rotated by functions/auth/secretRotation.ts; dropping the AWSPREVIOUS label revokes it at once;
// - locally: JWT_SECRET, the lines of DATA_DIR/jwt.key, `<kid> <key> [<since ms>]`, newest first
//   (scripts/tools/rotateJwtKey.ts adds one with its time and keeps the one before, or with
//   --revoke-previous drops it).

export interface JwtKey {
  kid: string;
  /** HMAC key material. */
  secret: Uint8Array;
  /** A previous key verifies until then (ms): a token's lifetime after the rotation. Absent: no end. */
  until?: number;
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

/** The token lifetime after a rotation during which the key before it still verifies. */
const previousKeyMs = () => config.jwtTtlSeconds * 1000;

/**
 * `<kid> <key> [<since>]` lines, newest first; a line with one word is a bare key. Blank lines are
 * skipped. `since` (ms) on the first line is when it began to sign: the keys after it verify a
 * token's lifetime from then (a file written before it was kept: with no end).
 */
export function parseKeyLines(text: string): JwtKey[] {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => line.split(/\s+/));
  if (lines.length === 0) throw new Error('No JWT signing key configured');
  const since = Number(lines[0][2]);
  const until = Number.isFinite(since) && since > 0 ? since + previousKeyMs() : undefined;
  return lines.map(([first, second], i) => {
    const [kid, key] = second === undefined ? [derivedKid(first), first] : [first, second];
    return { kid, secret: encoder.encode(key), ...(i > 0 && until !== undefined ? { until } : {}) };
  });
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
    secretStageVersion(arn, 'AWSCURRENT'),
    secretStageValue(arn, 'AWSPREVIOUS'),
  ]);
  if (!current?.value) throw new Error('The JWT key secret has no current value');
  const signing = parseKeySecret(current.value);
  const before = previous ? parseKeySecret(previous) : undefined;
  if (!before || before.kid === signing.kid) return { signing, verifying: [signing] };
  const until = current.createdAt === undefined ? undefined : current.createdAt + previousKeyMs();
  return { signing, verifying: [signing, { ...before, ...(until !== undefined ? { until } : {}) }] };
}

let ring = cachedFor(readRing, { ttlMs: KEY_CACHE_MS });
let lastReread = 0;

/** Whether a key verifies at `now`: a previous key only for a token's lifetime after its rotation. */
const verifiesAt = (key: JwtKey, now: number) => key.until === undefined || now < key.until;

/** The keys as they are at `now`: a previous key past its end verifies nothing (nor keys a captcha). */
export async function jwtKeyRing(now = Date.now()): Promise<JwtKeyRing> {
  const { signing, verifying } = await ring.get();
  return { signing, verifying: verifying.filter((k) => verifiesAt(k, now)) };
}

/**
 * The key a token names. A kid this instance does not know may be a key rotated in since it read
 * the ring: it reads again (rarely, so forged kids cannot make every request call Secrets Manager).
 */
export async function verifyingKey(kid: string, now = Date.now()): Promise<JwtKey | undefined> {
  const found = (await ring.get()).verifying.find((k) => k.kid === kid);
  // A known key past its end is refused as it is: no read again for it.
  if (found) return verifiesAt(found, now) ? found : undefined;
  if (now - lastReread < UNKNOWN_KID_REREAD_MS) return undefined;
  lastReread = now;
  ring.invalidate();
  const reread = (await ring.get()).verifying.find((k) => k.kid === kid);
  return reread && verifiesAt(reread, now) ? reread : undefined;
}

/** For tests that change the configuration between cases. */
export function resetJwtKeys(): void {
  ring = cachedFor(readRing, { ttlMs: KEY_CACHE_MS });
  lastReread = 0;
}
