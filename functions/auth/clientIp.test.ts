import { describe, expect, it } from 'vitest';
import { clientIp } from './clientIp.js';

describe('clientIp', () => {
  it('uses the gateway source address and ignores a forwarded header from the internet', () => {
    expect(clientIp({ sourceIp: '203.0.113.9', headers: { 'x-forwarded-for': '10.0.0.1' } })).toBe('203.0.113.9');
  });

  it('trusts the forwarded address only behind a proxy on this machine', () => {
    expect(clientIp({ sourceIp: '127.0.0.1', headers: { 'x-forwarded-for': '198.51.100.1, 10.0.0.7' } })).toBe(
      '10.0.0.7',
    );
    expect(clientIp({ sourceIp: '::ffff:127.0.0.1', headers: { 'x-forwarded-for': '10.0.0.8, 127.0.0.1' } })).toBe(
      '10.0.0.8',
    );
    expect(clientIp({ sourceIp: '::1', headers: {} })).toBe('::1');
  });
});
