import { describe, expect, it } from 'vitest';
import { maskSecret } from './maskSecret.js';

describe('maskSecret', () => {
  it('shows only the two first and last characters of a long secret', () => {
    expect(maskSecret('sk_live_abcdefghijkl')).toBe('sk***kl');
  });

  it('shows nothing of a short secret such as a password', () => {
    expect(maskSecret('hunter2')).toBe('***');
    expect(maskSecret('12345678901')).toBe('***');
  });

  it('shows an empty string for a missing secret', () => {
    expect(maskSecret(undefined)).toBe('');
    expect(maskSecret(null)).toBe('');
    expect(maskSecret('')).toBe('');
  });
});
