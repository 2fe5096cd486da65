import { createHash, randomBytes } from 'node:crypto';

// Ten recovery codes, shown once when TOTP is confirmed (or regenerated), each good for one sign-in
// in place of a TOTP code. Each holds 50 random bits as ten base32 letters, shown `xxxxx-xxxxx`;
// only their digests are stored (factorStore.ts), bound to the user so a digest says nothing
// about another user's codes. Typed codes are read case- and dash-insensitively.

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

function newCode(): string {
  const bytes = randomBytes(10);
  const letters = [...bytes].map((b) => ALPHABET[b & 31]).join('');
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
}

export const newRecoveryCodes = (): string[] => Array.from({ length: RECOVERY_CODE_COUNT }, newCode);

/**
 * The stored form of a code as typed: spaces and dashes dropped, lower case, and the digits 0 and 1
 * read as the letters o and l they look like (base32 has neither digit).
 */
export function recoveryDigest(userId: number, typed: string): string {
  const normalized = typed
    .replace(/[\s-]+/g, '')
    .toLowerCase()
    .replace(/0/g, 'o')
    .replace(/1/g, 'l');
  return createHash('sha256').update(`patrol/recovery-code\0${userId}\0${normalized}`).digest('base64url');
}
