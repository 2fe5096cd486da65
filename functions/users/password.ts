import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

// Password hashes: `scrypt$N$r$p$<b64 salt>$<b64 key>`. The parameters travel with each
// hash so that raising the cost later does not lock out users hashed with the old one.
//
// N = 2^15, r = 8, p = 1 uses 32 MiB and about 110 ms per hash on a 2-core build machine:
// slow enough to make offline guessing expensive, quick enough for a login Lambda.
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }, keyLength: number) {
  // maxmem must exceed 128 * N * r, or node refuses the parameters it was given.
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 1024 * 1024 };
  return new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, SCRYPT_PARAMS, KEY_LENGTH);
  const { N, r, p } = SCRYPT_PARAMS;
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

function parse(hash: string) {
  const [scheme, n, r, p, salt, key] = hash.split('$');
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const wellFormed =
    scheme === 'scrypt' &&
    Number.isInteger(params.N) &&
    params.N > 1 &&
    (params.N & (params.N - 1)) === 0 &&
    params.N <= 2 ** 20 &&
    Number.isInteger(params.r) &&
    params.r > 0 &&
    params.r <= 32 &&
    Number.isInteger(params.p) &&
    params.p > 0 &&
    params.p <= 16 &&
    Boolean(salt) &&
    Boolean(key);
  if (!wellFormed) return undefined;
  return { params, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
}

/** True when `password` matches `hash`; a malformed hash never matches. Constant-time compare. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const parsed = parse(hash);
  if (!parsed || parsed.key.length === 0) return false;
  const candidate = await derive(password, parsed.salt, parsed.params, parsed.key.length);
  return timingSafeEqual(candidate, parsed.key);
}

/** True when the hash was made with other parameters than today's (rehash on the next login). */
export function needsRehash(hash: string): boolean {
  const parsed = parse(hash);
  if (!parsed) return true;
  const { N, r, p } = parsed.params;
  return N !== SCRYPT_PARAMS.N || r !== SCRYPT_PARAMS.r || p !== SCRYPT_PARAMS.p;
}

// A login for an unknown username still spends one scrypt, so the answer time does not
// tell which usernames exist.
let decoy: Promise<string> | undefined;
export async function spendDecoyVerify(password: string): Promise<void> {
  decoy ??= hashPassword(randomBytes(12).toString('base64'));
  await verifyPassword(password, await decoy);
}
