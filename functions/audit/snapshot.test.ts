import { describe, expect, it } from 'vitest';
import { auditSnapshot, SNAPSHOT_MAX_CHARS } from './snapshot.js';

describe('auditSnapshot', () => {
  it('leaves out every field named like a password, key, token or secret, at any depth', () => {
    const text = auditSnapshot({
      name: 'Site A',
      pwd: 'p1',
      password: 'p2',
      accounts: [{ user: 'agent01', pwd: 'p3' }],
      bank: { api_key: 'k1', hmac_key: 'k2', bot_token: 't1', signing_secret: 's1', jwt: 'j1', label: 'ok' },
    });
    expect(JSON.parse(text!)).toEqual({ name: 'Site A', accounts: [{ user: 'agent01' }], bank: { label: 'ok' } });
    for (const s of ['p1', 'p2', 'p3', 'k1', 'k2', 't1', 's1', 'j1']) expect(text).not.toContain(`"${s}"`);
  });

  it('leaves out what signs a user in: tickets, typed codes, recovery codes, an otpauth URL', () => {
    const text = auditSnapshot({
      ticket: 'tk1',
      method: 'totp',
      code: '123456',
      recovery_codes: ['abcde-fghij'],
      otpauth_url: 'otpauth://totp/Patrol:u?secret=S1',
      status: { code: 200 },
    });
    expect(JSON.parse(text!)).toEqual({ method: 'totp', status: { code: 200 } });
    for (const s of ['tk1', '123456', 'abcde-fghij', 'S1']) expect(text).not.toContain(s);
  });

  it('keeps nothing for no body and cuts a long one', () => {
    expect(auditSnapshot(undefined)).toBeUndefined();
    expect(auditSnapshot(null)).toBeUndefined();
    const long = auditSnapshot({ note: 'x'.repeat(SNAPSHOT_MAX_CHARS * 2) })!;
    expect(long.length).toBe(SNAPSHOT_MAX_CHARS + 1);
  });
});
