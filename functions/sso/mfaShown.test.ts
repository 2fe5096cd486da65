import type { IDToken } from 'openid-client';
import { describe, expect, it } from 'vitest';
import { SsoConfig } from '../../shared/schemas/sso.js';
import { mfaShown } from './service.js';

const token = (claims: Record<string, unknown>) =>
  ({ iss: 'i', sub: 's', aud: 'a', iat: 0, exp: 1, ...claims }) as IDToken;
const sso = (mfa_claim: 'off' | 'amr' | 'acr', mfa_values: string[] = []) =>
  SsoConfig.parse({ enabled: false, mfa_claim, mfa_values });

describe("the provider's MFA as Patrol's second factor", () => {
  it('never counts when the config says off, whatever the token shows', () => {
    expect(mfaShown(sso('off'), token({ amr: ['mfa'], acr: 'mfa' }))).toBe(false);
  });

  it('counts with amr only when one of the configured values is in the claim', () => {
    expect(mfaShown(sso('amr', ['mfa', 'otp']), token({ amr: ['pwd', 'otp'] }))).toBe(true);
    expect(mfaShown(sso('amr', ['mfa']), token({ amr: ['pwd'] }))).toBe(false);
    expect(mfaShown(sso('amr', ['mfa']), token({ amr: 'mfa' }))).toBe(false);
    expect(mfaShown(sso('amr', ['mfa']), token({}))).toBe(false);
  });

  it('counts with acr only when the claim is one of the configured values', () => {
    expect(mfaShown(sso('acr', ['urn:mfa']), token({ acr: 'urn:mfa' }))).toBe(true);
    expect(mfaShown(sso('acr', ['urn:mfa']), token({ acr: 'urn:pwd', amr: ['urn:mfa'] }))).toBe(false);
  });
});

describe('the sso section of the system config', () => {
  it('needs an issuer and a client id once switched on, and MFA values once MFA counts', () => {
    const result = SsoConfig.safeParse({ enabled: true, mfa_claim: 'amr' });
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['issuer', 'client_id', 'mfa_values']));
  });

  it('refuses an issuer with credentials, a query or another scheme, and drops a trailing slash', () => {
    for (const issuer of ['https://u:p@idp.example.com', 'https://idp.example.com/?a=1', 'ftp://idp.example.com'])
      expect(SsoConfig.safeParse({ issuer }).success, issuer).toBe(false);
    expect(SsoConfig.parse({ issuer: 'https://idp.example.com/tenant/' }).issuer).toBe(
      'https://idp.example.com/tenant',
    );
  });
});
