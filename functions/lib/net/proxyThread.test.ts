import { spawnSync } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGuardedProxyThread } from './proxyThread.js';

// The guarded proxies' thread (proxyThread.ts): the same guard as in-process, what each proxy
// refuses reported to its own caller, and a process that may end with the thread still there.

let site: Server;
let siteHost: string;
beforeAll(async () => {
  site = createServer((_req, res) => res.end('hello from the site'));
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteHost = `127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => site.close(() => r())));

/** A plain HTTP request through a proxy: its status and body. */
const through = (proxyUrl: string, target: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const proxy = new URL(proxyUrl);
    const req = request({ host: proxy.hostname, port: proxy.port, path: target, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });

describe('guarded proxies on their own thread', () => {
  it('pass an allowed host, refuse the rest, and tell each caller only of its own refusals', async () => {
    const allowing = await startGuardedProxyThread({ allowedHosts: [siteHost] });
    const strict = await startGuardedProxyThread({ allowedHosts: [] });
    try {
      expect(await through(allowing.url, `http://${siteHost}/`)).toEqual({ status: 200, body: 'hello from the site' });
      const refused = await through(strict.url, `http://${siteHost}/secret?token=abc`);
      expect(refused.status).toBe(403);
      expect(refused.body).toContain('loopback address');
      // Reported, without the query; the other proxy refused nothing.
      await strict.sync();
      expect(strict.refused).toEqual([
        { target: `http://${siteHost}/secret`, reason: expect.stringContaining('loopback') },
      ]);
      expect(allowing.refused).toEqual([]);
    } finally {
      await Promise.all([allowing.close(), strict.close()]);
    }
    // Closed: its port no longer answers.
    await expect(through(strict.url, `http://${siteHost}/`)).rejects.toThrow();
  });

  it('never keep a process alive: a script that used one ends on its own', () => {
    const script = `
      const { startGuardedProxyThread } = await import(${JSON.stringify(fileURLToPath(new URL('./proxyThread.ts', import.meta.url)))});
      const proxy = await startGuardedProxyThread({ allowedHosts: [] });
      console.log(proxy.url.startsWith('http://127.0.0.1:') ? 'started' : 'no url');
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.stdout.trim()).toBe('started');
    // Not killed by the timeout: it ended by itself with its proxy still open.
    expect(run.signal).toBeNull();
    expect(run.status).toBe(0);
  });
});
