import { describe, expect, it } from 'vitest';
import { createRulesAccessor, inScope } from './rulesForAccount.js';
import type { AlertRuleStore, StoredAlertRule } from './store.js';

// The poll's read of the rules: every enabled rule parsed once per TTL, whatever the number of
// polls asking; a rule's scope decides which accounts it watches.

const row = (id: number, expression: string, scope: StoredAlertRule['scope']): StoredAlertRule => ({
  id,
  created_at: 0,
  name: `r${id}`,
  expression,
  scope,
  severity: 'warning',
  chat_id: null,
  enabled: true,
  editor_id: null,
});

function countingStore(rows: StoredAlertRule[]) {
  const reads = { n: 0 };
  const enabled = async () => {
    reads.n++;
    return rows;
  };
  const store = { enabled } as unknown as AlertRuleStore;
  return { store, reads };
}

describe('rules for an account', () => {
  it('reads the enabled rules once per TTL however many polls ask', async () => {
    let now = 0;
    const { store, reads } = countingStore([row(1, 'balance < 5', { kind: 'all' })]);
    const rules = createRulesAccessor(() => store, { ttlMs: 5_000, now: () => now });
    await Promise.all(Array.from({ length: 50 }, () => rules.get()));
    now = 4_999;
    await rules.get();
    expect(reads.n).toBe(1);
    now = 5_000;
    await rules.get();
    expect(reads.n).toBe(2);
    rules.invalidate();
    await rules.get();
    expect(reads.n).toBe(3);
  });

  it('parses each rule once and leaves out one that no longer parses', async () => {
    const { store } = countingStore([row(1, 'balance < 5', { kind: 'all' }), row(2, 'balance <', { kind: 'all' })]);
    const active = await createRulesAccessor(() => store).get();
    expect(active.map((r) => r.id)).toEqual([1]);
    expect(active[0]?.rule.figures).toEqual(['balance']);
  });

  it('matches every account, one bank, or the named accounts', () => {
    const kbz7 = { id: 7, bank_name: 1 as const };
    expect(inScope({ kind: 'all' }, kbz7)).toBe(true);
    expect(inScope({ kind: 'bank', bank: 1 }, kbz7)).toBe(true);
    expect(inScope({ kind: 'bank', bank: 2 }, kbz7)).toBe(false);
    expect(inScope({ kind: 'accounts', account_ids: [3, 7] }, kbz7)).toBe(true);
    expect(inScope({ kind: 'accounts', account_ids: [3] }, kbz7)).toBe(false);
  });
});
