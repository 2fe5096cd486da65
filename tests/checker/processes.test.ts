import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Process, TestMode } from '../../shared/enums';
import {
  type ProcessValue,
  processResultSchemas,
  type TestModeValue,
} from '../../shared/schemas/checkResults';
import { type CheckerFixture, startCheckerFixture } from './checkerFixture';

let f: CheckerFixture;
beforeAll(async () => {
  f = await startCheckerFixture();
});
afterAll(() => f?.close());

const cases = TestMode.options.flatMap((mode) =>
  Process.options.map((p) => ({ mode: mode.value as TestModeValue, modeLabel: mode.label, process: p.value as ProcessValue, label: p.label })),
);

describe('a normal account on the sandbox site', () => {
  it.each(cases)('passes $label in $modeLabel with its typed result filled', async ({ mode, process }) => {
    const { outcome, screenshot } = await f.check(process, { mode });

    expect(outcome.success, outcome.msg).toBe(true);
    expect(processResultSchemas[process].safeParse(outcome.result).success).toBe(true);
    expect(outcome.session?.token).toBeTruthy();
    expect(outcome.steps.every((s) => s.ok)).toBe(true);
    expect(outcome.steps.map((s) => s.name)).toContain('open /login');
    expect(screenshot).toBeUndefined();
  });

  it('reports the result fields of each process as the site shows them', async () => {
    const login = await f.check(1, { mode: 1 });
    expect(login.outcome.result).toEqual({ login_success: true, msg: 'Login success' });

    const bet = await f.check(2, { mode: 3 });
    expect(bet.outcome.result).toMatchObject({ DrawOpen: true, bet_success: true, status_code: 200 });
    const bets = bet.outcome.process === 2 ? bet.outcome.result.bets : [];
    expect(bets).toHaveLength(2);
    expect(bets[0]).toMatchObject({ draw_id: 'TT-101', bet_id: expect.stringMatching(/^B\d+$/) });

    const fix = await f.check(4, { mode: 1 });
    expect(fix.outcome.result).toMatchObject({ query_success: true, records_cnt: 8, active_cnt: 5, inactive_cnt: 3 });

    const out = await f.check(5, { mode: 1 });
    expect(out.outcome.result).toMatchObject({
      process_success: true,
      status_code: 200,
      result: { message: expect.stringContaining('executed'), data: { Msg: expect.any(Array) } },
    });

    const status = await f.check(7, { mode: 3 });
    expect(status.outcome.result).toMatchObject({ is_closed: false, balance_stat: expect.any(Array) });

    const agents = await f.check(8, { mode: 1 });
    expect(agents.outcome.result).toMatchObject({ query_success: true, agents_cnt: 7, normal_cnt: 3 });
  });

  it('deletes the bets it placed, then finds nothing left to delete', async () => {
    await f.check(2, { user: 'agent-del', mode: 1 });
    const first = await f.check(3, { user: 'agent-del', mode: 1 });
    expect(first.outcome.result).toMatchObject({ has_record: true, delete_success: true, status_code: 200 });

    const again = await f.check(3, { user: 'agent-del', mode: 1 });
    expect(again.outcome).toMatchObject({ success: true, result: { has_record: false, description: 'No bet to delete' } });
  });
});

describe('a stored session', () => {
  it('is reused without the login form and reported as auth type Session', async () => {
    const login = await f.check(1, { user: 'agent-sess' });
    const { outcome } = await f.check(4, { user: 'agent-sess', session: login.outcome.session });

    expect(outcome.success, outcome.msg).toBe(true);
    expect(outcome.steps.map((s) => s.name)).not.toContain('open /login');
    expect(outcome.session).toMatchObject({ auth_type: 2, token: login.outcome.session?.token });
  });

  it('that the site no longer accepts is replaced by a fresh login', async () => {
    const login = await f.check(1, { user: 'agent-stale' });
    const stale = login.outcome.session!;
    await fetch(`${f.site.url}/api/logout`, { method: 'POST', headers: { authorization: `Bearer ${stale.token}` } });

    const { outcome } = await f.check(8, { user: 'agent-stale', session: stale });

    expect(outcome.success, outcome.msg).toBe(true);
    expect(outcome.session?.auth_type).toBe(1);
    expect(outcome.session?.token).not.toBe(stale.token);
  });
});
