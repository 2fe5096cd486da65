import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CheckContext, openCheckContext } from '../../functions/checks/browser/launchBrowser';
import { SANDBOX_PASSWORD } from '../../scripts/sandbox/site/server';
import { type CheckerFixture, setBehaviour, startCheckerFixture } from './checkerFixture';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

let f: CheckerFixture;
beforeAll(async () => {
  // A slow answer outlasts the slow step's timeout many times over, so that timeout (not the
  // machine's speed) decides which step gives up.
  f = await startCheckerFixture({ slowMs: 40_000 });
});
afterAll(() => f?.close());

describe('a check that meets a failing site', () => {
  it('fails the login with the site message for a wrong password', async () => {
    const { outcome, screenshot } = await f.check(1, { account: { user: 'agent01', pwd: 'not-the-password' } });

    expect(outcome).toMatchObject({
      success: false,
      msg: 'Login failed: Wrong username or password',
      result: { login_success: false, msg: 'Login failed: Wrong username or password' },
    });
    expect(screenshot?.subarray(0, 4)).toEqual(PNG);
  });

  it('fails every process of a locked account at its login', async () => {
    const { outcome, screenshot } = await f.check(4, { user: 'locked01' });

    expect(outcome.success).toBe(false);
    expect(outcome.msg).toBe('Login failed: Account is locked, please contact your upline');
    expect(outcome.result).toMatchObject({ query_success: false, description: outcome.msg });
    expect(screenshot?.subarray(0, 4)).toEqual(PNG);
  });

  it('fails when the session stops working in the middle of the task', async () => {
    const { outcome, screenshot } = await f.check(7, { user: 'expire01' });

    expect(outcome.success).toBe(false);
    expect(outcome.msg).toMatch(/^Session expired during the check/);
    expect(screenshot).toBeDefined();
  });

  it('gives up on a slow answer at the step timeout instead of waiting for it', async () => {
    const started = Date.now();
    const { outcome, screenshot } = await f.check(8, { user: 'slow01', stepTimeoutMs: 12_000 });

    expect(outcome.success).toBe(false);
    expect(outcome.msg).toBe('Timed out after 12000 ms at step "GET /api/d4/agents": the site did not answer in time');
    expect(outcome.steps.at(-1)).toMatchObject({ name: 'GET /api/d4/agents', ok: false });
    expect(Date.now() - started).toBeLessThan(40_000);
    expect(screenshot).toBeDefined();
  });

  it('ends at the whole-check timeout even when every step is within its own', async () => {
    const { outcome } = await f.check(2, { user: 'slow02', timeoutMs: 1500, stepTimeoutMs: 10_000 });

    expect(outcome).toMatchObject({ success: false, msg: 'Check timed out after 1500 ms (whole check)' });
  });

  it('spends the whole-check bound on opening the browser context too, and closes a context that opens late', async () => {
    let closed = false;
    const late = new Promise<CheckContext>((resolve) => {
      setTimeout(async () => {
        const context = await openCheckContext(f.browser);
        const close = async () => {
          await context.close();
          closed = true;
        };
        resolve({ ...context, close });
      }, 2000);
    });

    const { outcome } = await f.check(2, { timeoutMs: 1000, stepTimeoutMs: 10_000, opened: late });

    expect(outcome).toMatchObject({ success: false, msg: 'Check timed out after 1000 ms (whole check)' });
    expect(outcome.steps).toEqual([expect.objectContaining({ name: 'open browser context', ok: false })]);
    await vi.waitFor(() => expect(closed).toBe(true), { timeout: 15_000 });
  });

  it('reports an HTTP 500 of the site with its status code', async () => {
    const { outcome } = await f.check(5, { user: 'err500a', mode: 3 });

    expect(outcome).toMatchObject({ success: false, msg: 'Site answered HTTP 500 to POST /api/tt/out-setting3' });
  });

  it('reports an answer that is not valid JSON as malformed', async () => {
    const { outcome } = await f.check(4, { user: 'badjson01' });

    expect(outcome.success).toBe(false);
    expect(outcome.msg).toMatch(/^Malformed response from GET \/api\/d4\/draw-settings: invalid JSON/);
  });

  it('does not bet on a closed draw', async () => {
    const { outcome, screenshot } = await f.check(2, { user: 'closed01' });

    expect(outcome).toMatchObject({
      success: false,
      msg: 'Draw is closed: D4-101 Magnum 4D',
      result: { DrawOpen: false, bet_success: false, bets: [] },
    });
    expect(screenshot).toBeDefined();
  });

  it('follows a switch set through the admin call for one mode and process, for one call only', async () => {
    await setBehaviour(f.site.url, { failure: 'http500', mode: 'tt', process: 8, times: 1 });

    const d4 = await f.check(8, { user: 'agent-switch', mode: 1 });
    const tt = await f.check(8, { user: 'agent-switch', mode: 3 });
    const ttAgain = await f.check(8, { user: 'agent-switch', mode: 3 });

    expect(d4.outcome.success).toBe(true);
    expect(tt.outcome).toMatchObject({ success: false, msg: 'Site answered HTTP 500 to GET /api/tt/agents' });
    expect(ttAgain.outcome.success).toBe(true);
  });

  it('keeps the password out of everything it reports', async () => {
    const { outcome } = await f.check(1, { user: 'locked02' });
    expect(JSON.stringify(outcome)).not.toContain(SANDBOX_PASSWORD);
  });
});
