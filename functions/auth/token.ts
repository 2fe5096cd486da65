import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { UserRoleValue } from '../../shared/schemas/auth.js';
import { config } from '../lib/config.js';
import { InvalidTokenError, SessionExpiredError } from './errors.js';

// Login tokens: HS256 JWTs. `ver` is the user's token_version at login; logout and a
// password change bump the stored version, which ends every token issued before.

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

const secretKey = () => new TextEncoder().encode(config.jwtSecret);

export async function signToken(
  user: { id: number; role: UserRoleValue; token_version: number },
  now = Date.now(),
): Promise<{ jwt: string; expires_at: number }> {
  const exp = Math.floor(now / 1000) + config.jwtTtlSeconds;
  const jwt = await new SignJWT({ role: user.role, ver: user.token_version })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(String(user.id))
    .setIssuer(ISSUER)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(exp)
    .setJti(randomUUID())
    .sign(secretKey());
  return { jwt, expires_at: exp * 1000 };
}

/** The claims of a valid, unexpired token signed with our secret; otherwise a 401. */
export async function verifyToken(jwt: string): Promise<TokenClaims> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(jwt, secretKey(), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      requiredClaims: ['exp'],
    }));
  } catch (cause) {
    if (cause instanceof errors.JWTExpired) throw new SessionExpiredError({ cause });
    throw new InvalidTokenError({ cause });
  }
  const sub = Number(payload.sub);
  const { role, ver, jti, exp } = payload;
  if (!Number.isInteger(sub) || sub <= 0 || typeof ver !== 'number' || (role !== 'super' && role !== 'operator')) {
    throw new InvalidTokenError();
  }
  return { sub, role, ver, jti: String(jti ?? ''), exp: exp as number };
}
