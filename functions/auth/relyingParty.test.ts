import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../shared/errors.js';
import { relyingPartyOf } from './relyingParty.js';

describe('the passkeys relying party', () => {
  it("is the console's own host and origin at a domain name", () => {
    expect(relyingPartyOf('https://d111111abcdef8.cloudfront.net')).toEqual({
      id: 'd111111abcdef8.cloudfront.net',
      origin: 'https://d111111abcdef8.cloudfront.net',
      name: 'Patrol',
    });
    expect(relyingPartyOf('https://patrol.example.com:8443/')).toMatchObject({
      id: 'patrol.example.com',
      origin: 'https://patrol.example.com:8443',
    });
  });

  it('is localhost, on the same port, for the local stack at a loopback address', () => {
    expect(relyingPartyOf('http://127.0.0.1:3000')).toMatchObject({ id: 'localhost', origin: 'http://localhost:3000' });
    expect(relyingPartyOf('http://[::1]:4100')).toMatchObject({ id: 'localhost', origin: 'http://localhost:4100' });
    expect(relyingPartyOf('http://localhost:3000')).toMatchObject({ id: 'localhost', origin: 'http://localhost:3000' });
  });

  it('refuses any other IP address: WebAuthn takes none as a site', () => {
    expect(() => relyingPartyOf('http://10.0.0.5:3000')).toThrow(
      expect.objectContaining({ status: 403, code: ErrorCode.PasskeysUnavailable }),
    );
  });
});
