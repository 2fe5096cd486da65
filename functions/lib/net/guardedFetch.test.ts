import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch } from './guardedFetch.js';
import { OutboundRequestError } from './guardedJsonRequest.js';

// A local server stands for the provider: allowed only by name on the allow-list, as the local
// stack allows its sandboxes.
let url = '';
let host = '';
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.url === '/redirect') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      return;
    }
    res.setHeader('set-cookie', ['a=1', 'b=2']);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ method: req.method, type: req.headers['content-type'], body: Buffer.concat(chunks).toString() }),
    );
  });
});

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  host = `127.0.0.1:${port}`;
  url = `http://${host}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('guardedFetch', () => {
  it('refuses a private address that is not on the allow-list, before connecting', async () => {
    await expect(guardedFetch({ allowedHosts: [] })(`${url}/`)).rejects.toBeInstanceOf(OutboundRequestError);
    await expect(guardedFetch({ allowedHosts: [] })('http://169.254.169.254/latest')).rejects.toThrow(/refused/);
  });

  it('answers a standard Response for an allowed host: status, headers (each cookie), body, a form body sent as one', async () => {
    const res = await guardedFetch({ allowedHosts: [host] })(`${url}/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x y' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await res.json()).toEqual({
      method: 'POST',
      type: 'application/x-www-form-urlencoded;charset=UTF-8',
      body: 'grant_type=authorization_code&code=x+y',
    });
  });

  it('does not follow a redirect: the caller sees it', async () => {
    const res = await guardedFetch({ allowedHosts: [host] })(`${url}/redirect`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toContain('169.254.169.254');
  });
});
