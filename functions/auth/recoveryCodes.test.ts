import { describe, expect, it } from 'vitest';
import { newRecoveryCodes, RECOVERY_CODE_COUNT, recoveryDigest } from './recoveryCodes.js';

describe('recovery codes', () => {
  it('are ten different codes of ten base32 letters, shown xxxxx-xxxxx', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
  });

  it('match as typed with any case, spaces or dashes, and 0/1 for o/l; never another user’s', () => {
    const digest = recoveryDigest(7, 'abolc-defgh');
    for (const typed of ['ABOLC-DEFGH', 'abolcdefgh', ' abolc defgh ', 'ab0lc-defgh', 'abo1c-defgh']) {
      expect(recoveryDigest(7, typed), typed).toBe(digest);
    }
    expect(recoveryDigest(8, 'abolc-defgh')).not.toBe(digest);
    expect(recoveryDigest(7, 'abolc-defgi')).not.toBe(digest);
  });
});
