import { describe, expect, it } from 'vitest';
import { parseRule } from '../../shared/alertRules/index.js';
import type { ActiveAlertRule } from '../bankAlertRules/rulesForAccount.js';
import type { BankIncidentChange } from '../incidents/bankIncidents.js';
import { SNAP_READ, SNAP_USABLE } from './entities.js';
import { pollFigures, ruleIncidents, statusIncidents } from './incidents.js';

// What a poll tells bank incidents (issue 45): which transitions open or resolve an incident, and
// the figures the rules see. The follow-ups themselves are applied in tests/bank/bankIncidents.test.ts
// and at every crash point in tests/data/bankIncidentCrash.test.ts.

const account = { id: 5, bank_name: 1 as const, user: 'shop', status: 1 as const, rules_firing: [] as number[] };
const AT = Date.parse('2026-11-23T10:00:00+06:30');
const rule = (id: number, expression: string): ActiveAlertRule => {
  const parsed = parseRule(expression);
  if (!parsed.ok) throw new Error(parsed.message);
  return {
    id,
    name: `r${id}`,
    expression,
    rule: parsed.rule,
    severity: 'warning',
    chat_id: null,
    scope: { kind: 'all' },
  };
};
const changes = (steps: { args: Record<string, unknown> }[]) =>
  steps.map((s) => s.args as unknown as BankIncidentChange);

describe("a poll's status change", () => {
  it('opens the account incident on Incorrect, Locked or Wrong, resolves it on Enable after one, and ignores the rest', () => {
    for (const next of [2, 3, 9]) {
      const [open] = changes(statusIncidents(account, next, AT, 'refused'));
      expect(open).toMatchObject({
        failing: true,
        subject: { account_id: 5, rule: null },
        cause: `5:status${next}:${AT}`,
      });
    }
    expect(changes(statusIncidents({ ...account, status: 3 }, 1, AT, null))).toMatchObject([
      { failing: false, message: 'The account polls well again' },
    ]);
    // No change, a disable, and Enable from Enable: nothing.
    expect(statusIncidents(account, 1, AT, null)).toEqual([]);
    expect(statusIncidents(account, undefined, AT, 'timeout')).toEqual([]);
    expect(statusIncidents(account, 99, AT, null)).toEqual([]);
  });
});

describe('alert rules in the poll', () => {
  const figures = (balance?: number) => ({
    ...(balance === undefined ? {} : { balance }),
    credits: [],
    debits: [],
    status: 1 as const,
  });

  it('opens a rule incident when it starts to hold and resolves it when it stops, with the deciding value', () => {
    const floor = rule(7, 'balance < 1,000');
    const fired = ruleIncidents(account, [floor], figures(900), AT);
    expect(fired.firing).toEqual([7]);
    expect(changes(fired.followUps)).toMatchObject([
      { failing: true, subject: { rule: { id: 7, severity: 'warning' } }, message: 'balance < 1,000 (balance 900)' },
    ]);
    // Still holding: nothing to write.
    expect(ruleIncidents({ ...account, rules_firing: [7] }, [floor], figures(800), AT)).toEqual({ followUps: [] });
    const cleared = ruleIncidents({ ...account, rules_firing: [7] }, [floor], figures(1500), AT);
    expect(cleared.firing).toEqual([]);
    expect(changes(cleared.followUps)).toMatchObject([{ failing: false, cause: `5:rule7:cleared:${AT}` }]);
  });

  it('keeps a rule as it was when the figures cannot decide it (a failed poll has no balance)', () => {
    const floor = rule(7, 'balance < 1,000');
    expect(ruleIncidents({ ...account, rules_firing: [7] }, [floor], figures(), AT)).toEqual({ followUps: [] });
    expect(ruleIncidents(account, [floor], figures(), AT)).toEqual({ followUps: [] });
  });

  it('resolves the incident of a rule that no longer watches the account (disabled, deleted, out of scope)', () => {
    const out = ruleIncidents({ ...account, rules_firing: [7, 8] }, [rule(8, 'balance < 1,000')], figures(500), AT);
    expect(out.firing).toEqual([8]);
    expect(changes(out.followUps)).toMatchObject([{ failing: false, subject: { rule: { id: 7 } } }]);
  });
});

describe('the figures of a poll', () => {
  const base = {
    account: { monitor_range: [[0, 86_400]] as [number, number][], enabled_at: AT - 3_600_000 },
    tally: { statements: 0, balances: 0, unreconciled: 0, hours: {} },
    lastStatementAt: undefined,
    status: 1,
    now: AT,
    timeZone: 'Asia/Yangon',
  };

  it('sums the Available sub-accounts of the snapshot, and has no balance after a failed poll', () => {
    const snapshot = {
      a: [1, 150_000, SNAP_USABLE],
      b: [2, 50_050, SNAP_USABLE | SNAP_READ],
      c: [3, 99_900, 0],
    } as never;
    expect(pollFigures({ ...base, ok: true, snapshot }).balance).toBe(2000.5);
    expect(pollFigures({ ...base, ok: false, snapshot }).balance).toBeUndefined();
  });

  it("counts the silence from the newest statement, or from the account's enabling, inside its ranges only", () => {
    expect(pollFigures({ ...base, ok: true, snapshot: undefined }).no_statement_for_ms).toBe(3_600_000);
    const nineToFive = { ...base.account, monitor_range: [[9 * 3600, 17 * 3600]] as [number, number][] };
    // Enabled at 09:00 the day before, 10:00 now: 8 h yesterday and 1 h today.
    const since = Date.parse('2026-11-22T09:00:00+06:30');
    expect(
      pollFigures({ ...base, account: { ...nineToFive, enabled_at: since }, ok: true, snapshot: undefined })
        .no_statement_for_ms,
    ).toBe(9 * 3_600_000);
  });

  it("takes this poll's credits, debits and largest drift from its tally", () => {
    const tally = { ...base.tally, credits: [10, 5_000_000], debits: [3], drift: 12.5 };
    expect(pollFigures({ ...base, tally, ok: true, snapshot: undefined })).toMatchObject({
      credits: [10, 5_000_000],
      debits: [3],
      drift: 12.5,
      status: 1,
    });
  });
});
