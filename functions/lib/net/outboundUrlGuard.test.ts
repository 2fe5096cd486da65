import { describe, expect, it } from 'vitest';
import {
  assertOutboundUrl,
  blockedAddressReason,
  type HostResolver,
  OutboundUrlRefusedError,
  resolveOutboundTarget,
} from './outboundUrlGuard.js';

/** A resolver with fixed answers; unknown names fail like ENOTFOUND. */
const resolver =
  (answers: Record<string, string[]>): HostResolver =>
  async (host) => {
    const found = answers[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const refused = async (url: string, opts = {}) => {
  const error = await assertOutboundUrl(url, { resolve: resolver({}), ...opts }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, url).toBeInstanceOf(OutboundUrlRefusedError);
  return (error as OutboundUrlRefusedError).extra?.url;
};

describe('assertOutboundUrl at save time', () => {
  it.each([
    ['http://127.0.0.1:8000/', 'loopback'],
    ['http://127.1/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0x7f.0.0.1/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://localhost:4569/', 'loopback'],
    ['http://api.localhost/', 'loopback'],
    ['http://10.1.2.3/', 'private network'],
    ['http://172.16.0.1/', 'private network'],
    ['http://192.168.1.1/', 'private network'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://2852039166/', 'link-local'],
    ['http://[::ffff:a9fe:a9fe]/', 'link-local'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'link-local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[fd00:ec2::254]/', 'unique-local'],
    ['http://[::]/', 'reserved IPv6'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://100.100.100.200/', 'carrier-grade'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'metadata'],
    ['http://METADATA.google.internal./', 'metadata'],
  ])('refuses %s with a 400 that says why', async (url, says) => {
    const message = await refused(url);
    expect(message).toContain('This address is not allowed');
    expect(message).toContain(says);
  });

  it('refuses a name that resolves to a private address, even when one of its addresses is public', async () => {
    const resolve = resolver({ 'inside.example.com': ['93.184.216.34', '10.0.0.5'] });
    expect(await refused('https://inside.example.com/', { resolve })).toContain('resolves to 10.0.0.5');
  });

  it('accepts a public address and a name that does not resolve now', async () => {
    const resolve = resolver({ 'agent.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] });
    await expect(assertOutboundUrl('https://agent.example.com/login', { resolve })).resolves.toBeUndefined();
    await expect(assertOutboundUrl('https://93.184.216.34/', { resolve })).resolves.toBeUndefined();
    await expect(assertOutboundUrl('https://not-yet.example.com/', { resolve })).resolves.toBeUndefined();
  });

  it('accepts a private host named in the allow-list, with or without its port', async () => {
    await expect(
      assertOutboundUrl('http://127.0.0.1:4100/', { allowedHosts: ['127.0.0.1:4100'] }),
    ).resolves.toBeUndefined();
    await expect(assertOutboundUrl('http://127.0.0.1:9999/', { allowedHosts: ['127.0.0.1:4100'] })).rejects.toThrow(
      OutboundUrlRefusedError,
    );
    await expect(assertOutboundUrl('http://[::1]:8080/', { allowedHosts: ['[::1]:8080'] })).resolves.toBeUndefined();
    await expect(
      assertOutboundUrl('http://sandbox.internal.test/', {
        allowedHosts: ['sandbox.internal.test'],
        resolve: resolver({ 'sandbox.internal.test': ['10.0.0.9'] }),
      }),
    ).resolves.toBeUndefined();
  });

  it('names the field it was given', async () => {
    const error = await assertOutboundUrl('http://10.0.0.1/', { field: 'webhook_url' }).catch((e) => e);
    expect(error.extra).toEqual({ webhook_url: expect.stringContaining('private network') });
  });
});

describe('resolveOutboundTarget at use time', () => {
  it('refuses a name that does not resolve', async () => {
    await expect(resolveOutboundTarget('gone.example.com', 443, { resolve: resolver({}) })).rejects.toMatchObject({
      unresolved: true,
    });
  });

  it('gives the checked address to connect to', async () => {
    const target = await resolveOutboundTarget('agent.example.com', 443, {
      resolve: resolver({ 'agent.example.com': ['93.184.216.34'] }),
    });
    expect(target).toEqual({ host: 'agent.example.com', port: 443, address: '93.184.216.34', allowListed: false });
  });
});

describe('blockedAddressReason', () => {
  it('lets public unicast through and nothing else', () => {
    expect(blockedAddressReason('8.8.8.8')).toBeUndefined();
    expect(blockedAddressReason('2001:4860:4860::8888')).toBeUndefined();
    expect(blockedAddressReason('::ffff:8.8.8.8')).toBeUndefined();
    expect(blockedAddressReason('224.0.0.1')).toContain('multicast');
    expect(blockedAddressReason('255.255.255.255')).toContain('broadcast');
    expect(blockedAddressReason('::7f00:1')).toContain('reserved');
  });
});
