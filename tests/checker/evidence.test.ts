import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PASSWORD } from '../../scripts/sandbox/site/server';
import { type CheckerFixture, setBehaviour, startCheckerFixture } from './checkerFixture';

// What a failed attempt keeps as evidence, and which kind of failure it was (the retry rule reads
// it), against the sandbox site in real Chromium.

let f: CheckerFixture;
beforeAll(async () => {
  f = await startCheckerFixture({ slowMs: 8000 });
});
afterAll(() => f?.close());

describe('a failed attempt', () => {
  it('keeps the screenshot, the failed request and the console error, never the password', async () => {
    await setBehaviour(f.site.url, { failure: 'http500', user: 'evidence01', process: 1, times: 1 });
    const { outcome, screenshot } = await f.check(1, { user: 'evidence01' });

    expect(outcome).toMatchObject({ success: false, failureKind: 'http5xx' });
    expect(screenshot?.subarray(1, 4).toString()).toBe('PNG');
    expect(outcome.failedRequests).toContainEqual(
      expect.objectContaining({ method: 'POST', url: `${f.site.url}/api/login`, status: 500 }),
    );
    // The sandbox's login page logs the submitted password when a sign-in fails; the evidence keeps
    // the message with the password blanked.
    const logged = outcome.consoleErrors.find((e) => e.startsWith('Login failed for'));
    expect(logged).toContain('"password":"***"');
    expect(JSON.stringify(outcome)).not.toContain(SANDBOX_PASSWORD);
    expect(outcome.steps.map((s) => s.name)).toContain('POST /api/login');
  });

  it('redacts a typed password that crosses the 500th character of a console text', async () => {
    // The page logs 'Login failed for {"username":"agent01","password":"' (51 characters), then the
    // password: 470 characters of it run from 51 to 521, across the cut at 500.
    const pwd = Array.from({ length: 47 }, (_, i) => `Pw${String(i).padStart(2, '0')}secret`).join('');
    expect(pwd).toHaveLength(470);
    const { outcome } = await f.check(1, { account: { user: 'agent01', pwd } });
    expect(outcome).toMatchObject({ success: false, failureKind: 'page_error' });
    const logged = outcome.consoleErrors.find((e) => e.startsWith('Login failed for'));
    expect(logged).toContain('"password":"***"');
    // Not the password, nor any piece of it that was before the cut.
    expect(JSON.stringify(outcome)).not.toContain(pwd.slice(0, 20));
    expect(JSON.stringify(outcome)).not.toContain(pwd.slice(400, 420));
  });

  it('names a site that did not answer in time a timeout', async () => {
    const { outcome } = await f.check(8, { user: 'slow03', stepTimeoutMs: 2000 });
    expect(outcome).toMatchObject({ success: false, failureKind: 'timeout' });
  });

  it("names the page's own refusal a page error", async () => {
    const { outcome } = await f.check(1, { account: { user: 'agent01', pwd: 'not-the-password' } });
    expect(outcome).toMatchObject({ success: false, failureKind: 'page_error' });
    expect(JSON.stringify(outcome)).not.toContain('not-the-password');
  });

  it('names a site nobody listens at a network failure, with the request that failed', async () => {
    // A port that was free a moment ago: nothing answers there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const url = `http://127.0.0.1:${port}`;
    const { outcome } = await f.check(1, { site: { url }, allowedHosts: [`127.0.0.1:${port}`] });
    expect(outcome).toMatchObject({ success: false, failureKind: 'network' });
    expect(outcome.failedRequests[0]).toMatchObject({ method: 'GET', status: null });
    expect(outcome.failedRequests[0].error).toMatch(/no answer from the site \(ECONNREFUSED\)/);
  });

  it('reports no failure kind for a pass', async () => {
    const { outcome } = await f.check(1);
    expect(outcome.success).toBe(true);
    expect(outcome.failureKind).toBeUndefined();
    expect(outcome.failedRequests).toEqual([]);
  });
});
