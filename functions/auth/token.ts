import { randomUUID } from 'node:crypto';
import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';
import { UserRole } from '../../shared/enums.js';
import type { UserRoleValue } from '../../shared/schemas/auth.js';
import { config } from '../lib/config.js';
import { InvalidTokenError, SessionExpiredError } from './errors.js';
import { type JwtKey, jwtKeyRing, verifyingKey } from './jwtKeys.js';

// Login tokens: HS256 JWTs. `ver` is the user's token_version at login; logout and a
// password change bump the stored version, which ends every token issued before. The header's
// `kid` names the signing key, so tokens outlive a key rotation (jwtKeys.ts).

const ISSUER = 'patrol';
const ALGORITHM = 'HS256';

export interface TokenClaims {
  /** User id. */
  sub: number;
  role: UserRoleValue;
  ver: number;
  jti: string;
  /** Epoch seconds. */
  exp: number;
}

export async function signToken(
  user: { id: number; role: UserRoleValue; token_version: number },
  now = Date.now(),
): Promise<{ jwt: string; expires_at: number }> {
  const exp = Math.floor(now / 1000) + config.jwtTtlSeconds;
  const { signing } = await jwtKeyRing();
  const jwt = await new SignJWT({ role: user.role, ver: user.token_version })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT', kid: signing.kid })
    .setSubject(String(user.id))
    .setIssuer(ISSUER)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(exp)
    .setJti(randomUUID())
    .sign(signing.secret);
  return { jwt, expires_at: exp * 1000 };
}

/**
 * The keys a token may have been signed with: the one its kid names, or, for a token without a kid
 * (issued before key ids), every key that still verifies.
 */
async function candidateKeys(jwt: string, now: number): Promise<JwtKey[]> {
  let kid: unknown;
  try {
    ({ kid } = decodeProtectedHeader(jwt));
  } catch (cause) {
    throw new InvalidTokenError({ cause });
  }
  if (kid === undefined) return (await jwtKeyRing(now)).verifying;
  const key = typeof kid === 'string' ? await verifyingKey(kid, now) : undefined;
  // A kid no key of ours has: signed with a key rotated out long ago, or never ours.
  if (!key) throw new InvalidTokenError();
  return [key];
}

/** The claims of a valid, unexpired token signed with one of our keys (at `now`); otherwise a 401. */
export async function verifyToken(jwt: string, now = Date.now()): Promise<TokenClaims> {
  let payload: Record<string, unknown> | undefined;
  let failure: unknown;
  for (const key of await candidateKeys(jwt, now)) {
    try {
      ({ payload } = await jwtVerify(jwt, key.secret, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        requiredClaims: ['exp'],
        currentDate: new Date(now),
      }));
      break;
    } catch (cause) {
      // An expired token is expired whichever key signed it; a bad signature may fit the next key.
      if (cause instanceof errors.JWTExpired) throw new SessionExpiredError({ cause });
      failure = cause;
    }
  }
  if (!payload) throw new InvalidTokenError({ cause: failure });
  const sub = Number(payload.sub);
  const { role, ver, jti, exp } = payload;
  if (!Number.isInteger(sub) || sub <= 0 || typeof ver !== 'number' || !UserRole.has(role)) {
    throw new InvalidTokenError();
  }
  return { sub, role, ver, jti: String(jti ?? ''), exp: exp as number };
}
