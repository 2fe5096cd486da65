import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { newTotpSecret, otpauthUrl, TOTP_PERIOD_SECONDS, totpMatches, totpStep } from './totp.js';

// A fixed clock: the start of a window, so "one window later" is exact.
const NOW = 1_800_000_000_000 - (1_800_000_000_000 % 30_000);
const at = (secret: string, windows: number) => generate({ secret, epoch: NOW / 1000 + windows * TOTP_PERIOD_SECONDS });
const step = NOW / 1000 / TOTP_PERIOD_SECONDS;

describe('TOTP', () => {
  it('makes a 20-byte base32 secret and an otpauth URL every app reads (SHA-1, 6 digits, 30 s)', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl('olivia', secret));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Patrol:olivia');
    const params = url.searchParams;
    expect([params.get('secret'), params.get('issuer')]).toEqual([secret, 'Patrol']);
    // Left out when they are the defaults every app assumes.
    expect([params.get('algorithm') ?? 'SHA1', params.get('digits') ?? '6', params.get('period') ?? '30']).toEqual([
      'SHA1',
      '6',
      '30',
    ]);
  });

  it('takes the code of this window and of the one before or after, answering its window; none further', async () => {
    const secret = newTotpSecret();
    expect(await totpStep(secret, await at(secret, 0), NOW)).toBe(step);
    expect(await totpStep(secret, await at(secret, -1), NOW)).toBe(step - 1);
    expect(await totpStep(secret, await at(secret, 1), NOW)).toBe(step + 1);
    expect(await totpStep(secret, await at(secret, 3), NOW)).toBeUndefined();
    expect(await totpStep(secret, await at(secret, -3), NOW)).toBeUndefined();
  });

  it('refuses a code of a window used already, though it still matches', async () => {
    const secret = newTotpSecret();
    const code = await at(secret, 0);
    expect(await totpStep(secret, code, NOW, step)).toBeUndefined();
    expect(await totpMatches(secret, code, NOW)).toBe(true);
    expect(await totpStep(secret, await at(secret, 1), NOW, step)).toBe(step + 1);
  });
});
