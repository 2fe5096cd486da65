import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Process, TestMode } from '../../shared/enums';
import { type ProcessValue, processResultSchemas, type TestModeValue } from '../../shared/schemas/checkResults';
import { type CheckerFixture, startCheckerFixture } from './checkerFixture';

let f: CheckerFixture;
beforeAll(async () => {
  f = await startCheckerFixture();
});
afterAll(() => f?.close());

const cases = TestMode.options.flatMap((mode) =>
  Process.options.map((p) => ({
    mode: mode.value as TestModeValue,
    modeLabel: mode.label,
    process: p.value as ProcessValue,
    label: p.label,
  })),
);

/** What the sandbox shows a normal account, per process (seed 4). */
const expected: Record<ProcessValue, (mode: TestModeValue) => Record<string, unknown>> = {
  1: () => ({ login_success: true, msg: 'Login success' }),
  2: (mode) => ({
    DrawOpen: true,
    bet_success: true,
    status_code: 200,
    bets: [
      expect.objectContaining({ draw_id: mode === 1 ? 'D4-101' : 'TT-101', bet_id: expect.stringMatching(/^B\d+$/) }),
      expect.objectContaining({ draw_id: mode === 1 ? 'D4-101' : 'TT-101' }),
    ],
  }),
  3: () => ({ has_record: true, delete_success: true, status_code: 200 }),
  4: () => ({ query_success: true, records_cnt: 8, active_cnt: 5, inactive_cnt: 3 }),
  5: () => ({
    process_success: true,
    status_code: 200,
    result: {
      message: 'Out setting 3 executed: 5 number(s) processed',
      data: expect.objectContaining({ Msg: expect.any(Array) }),
    },
  }),
  6: () => ({ has_record: true, delete_success: true, status_code: 200 }),
  7: () => ({ is_closed: false, balance_stat: expect.any(Array), balance_total: expect.any(Array) }),
  8: () => ({ query_success: true, agents_cnt: 7, normal_cnt: 3 }),
};

describe('a normal account on the sandbox site', () => {
  it.each(cases)('passes $label in $modeLabel with its typed result filled', async ({ mode, process }) => {
    const { outcome, screenshot } = await f.check(process, { mode });

    expect(outcome.success, outcome.msg).toBe(true);
    expect(processResultSchemas[process].safeParse(outcome.result).success).toBe(true);
    expect(outcome.result).toMatchObject(expected[process](mode));
    expect(outcome.session?.token).toBeTruthy();
    expect(outcome.steps.every((s) => s.ok)).toBe(true);
    expect(outcome.steps.map((s) => s.name)).toContain('open /login');
    expect(screenshot).toBeUndefined();
  });

  it('deletes the bets it placed, then finds nothing left to delete', async () => {
    await f.check(2, { user: 'agent-del', mode: 1 });
    const first = await f.check(3, { user: 'agent-del', mode: 1 });
    expect(first.outcome.result).toMatchObject({ has_record: true, delete_success: true, status_code: 200 });

    const again = await f.check(3, { user: 'agent-del', mode: 1 });
    expect(again.outcome).toMatchObject({
      success: true,
      result: { has_record: false, description: 'No bet to delete' },
    });
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
