import { generateSecret, generateURI, verify } from 'otplib';

// TOTP as every authenticator app reads it (RFC 6238): SHA-1, 6 digits, 30 s windows, a base32
// secret of 20 random bytes; otplib does the arithmetic. A code of the window before or after
// the server's also counts (a phone's clock a little off), but never one of a window already used
// (`afterStep`, kept per user in factorStore.ts).

export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = 'Patrol';

export const newTotpSecret = (): string => generateSecret();

/** What the QR code holds: `otpauth://totp/Patrol:<username>?secret=…&issuer=Patrol…`. */
export const otpauthUrl = (username: string, secret: string): string =>
  generateURI({ issuer: ISSUER, label: username, secret, algorithm: 'sha1', digits: 6, period: TOTP_PERIOD_SECONDS });

/** The window a code was made in when it is right for `now` (± one window) and later than `afterStep`. */
export async function totpStep(
  secret: string,
  code: string,
  now: number,
  afterStep?: number,
): Promise<number | undefined> {
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now / 1000),
    epochTolerance: TOTP_PERIOD_SECONDS,
    ...(afterStep !== undefined ? { afterTimeStep: afterStep } : {}),
  });
  // The functional verify answers HOTP's shape too; a TOTP result carries its window.
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

/** Whether the code is right for `now` at all (used window or not): tells a reused code from a wrong one. */
export const totpMatches = async (secret: string, code: string, now: number): Promise<boolean> =>
  (await totpStep(secret, code, now)) !== undefined;
