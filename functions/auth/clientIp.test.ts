import { afterEach, describe, expect, it } from 'vitest';
import { clientIp, ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from './clientIp.js';

const saved = { TRUSTED_PROXIES: process.env.TRUSTED_PROXIES, ORIGIN_SECRET: process.env.ORIGIN_SECRET };
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe('clientIp', () => {
  it('takes the socket address and ignores a forwarded header the client wrote', () => {
    delete process.env.TRUSTED_PROXIES;
    expect(clientIp({ sourceIp: '203.0.113.9', headers: { 'x-forwarded-for': '10.0.0.1' } })).toBe('203.0.113.9');
    // Loopback is no proxy unless configured as one: a local attacker's header is not believed either.
    expect(clientIp({ sourceIp: '127.0.0.1', headers: { 'x-forwarded-for': '10.0.0.1, 127.0.0.1' } })).toBe(
      '127.0.0.1',
    );
    expect(clientIp({ sourceIp: '::ffff:127.0.0.5', headers: {} })).toBe('127.0.0.5');
  });

  it('believes X-Forwarded-For only from a configured proxy, taking its nearest untrusted hop', () => {
    process.env.TRUSTED_PROXIES = '127.0.0.1, 10.0.0.2';
    expect(
      clientIp({
        sourceIp: '127.0.0.1',
        headers: { 'x-forwarded-for': '198.51.100.1, 10.0.0.7, 10.0.0.2, 127.0.0.1' },
      }),
    ).toBe('10.0.0.7');
    expect(clientIp({ sourceIp: '127.0.0.9', headers: { 'x-forwarded-for': '10.0.0.7' } })).toBe('127.0.0.9');
  });

  it("takes CloudFront's viewer address only with the origin secret CloudFront adds", () => {
    process.env.ORIGIN_SECRET = 's3cret-value';
    const viewer = { [VIEWER_ADDRESS_HEADER]: '198.51.100.7:53711', 'x-forwarded-for': '10.9.9.9' };
    expect(clientIp({ sourceIp: '130.176.1.1', headers: { ...viewer, [ORIGIN_VERIFY_HEADER]: 's3cret-value' } })).toBe(
      '198.51.100.7',
    );
    expect(
      clientIp({
        sourceIp: '130.176.1.1',
        headers: { [VIEWER_ADDRESS_HEADER]: '2001:db8::1:443', [ORIGIN_VERIFY_HEADER]: 's3cret-value' },
      }),
    ).toBe('2001:db8::1');
    // A direct call to the API's own host name writing CloudFront's header: the connecting address counts.
    expect(clientIp({ sourceIp: '203.0.113.50', headers: { ...viewer, [ORIGIN_VERIFY_HEADER]: 'guess' } })).toBe(
      '203.0.113.50',
    );
    expect(clientIp({ sourceIp: '203.0.113.50', headers: viewer })).toBe('203.0.113.50');
  });
});
