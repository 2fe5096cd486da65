import { createServer, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listenSandbox, sandboxTimers } from './serveSandbox.js';

/** A GET on a kept-alive connection that settles with its status or the error that ended it. */
function get(url: string): Promise<number | Error> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false, headers: { connection: 'keep-alive' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', resolve);
    req.end();
  });
}

describe('a sandbox server', () => {
  it('listens on a free port and answers there', async () => {
    const server = createServer((_, res) => res.end('ok'));
    const sandbox = await listenSandbox(server, 0, '127.0.0.1');
    try {
      expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sandbox.url).not.toMatch(/:0$/);
      expect(await get(`${sandbox.url}/`)).toBe(200);
    } finally {
      await sandbox.stop();
    }
  });

  it('stops while a slow answer is still waiting: the wait is dropped and its client cut off', async () => {
    const timers = sandboxTimers();
    let arrived!: () => void;
    const inFlight = new Promise<void>((r) => {
      arrived = r;
    });
    let answered = false;
    const server = createServer(async (_, res) => {
      arrived();
      // Far longer than the test: only the stop can end this request.
      await timers.sleep(600_000);
      answered = true;
      res.end('late');
    });
    const sandbox = await listenSandbox(server, 0, '127.0.0.1', timers.clear);
    const answer = get(`${sandbox.url}/slow`);
    await inFlight;

    const stopped = await Promise.race([
      sandbox.stop().then(() => 'stopped' as const),
      new Promise<'still waiting'>((r) => setTimeout(() => r('still waiting'), 10_000).unref()),
    ]);
    expect(stopped).toBe('stopped');
    expect(await answer).toBeInstanceOf(Error);
    expect(answered).toBe(false);
    // Nothing listens there any more.
    expect(await get(`${sandbox.url}/`)).toBeInstanceOf(Error);
  });
});
