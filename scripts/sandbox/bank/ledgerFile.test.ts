import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandboxBank } from './server';

// The sandbox banks' ledger kept in a file (the local stack's DATA_DIR): a bank started again on it
// shows the statements and balances it had, as a real bank does after a restart of our stack.

const dir = await mkdtemp(join(tmpdir(), 'sandbox-bank-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

const control = (url: string, action: string, body: Record<string, unknown>) =>
  fetch(`${url}/__sandbox/bank/${action}`, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.json());

describe('a sandbox bank with a state file', () => {
  it('shows after a restart the transactions and switches it had, and carries on from them', async () => {
    const stateFile = join(dir, 'sandbox-bank.json');
    const first = await startSandboxBank({ port: 0, feedEveryMs: 0, stateFile });
    const txn = await control(first.url, 'transaction', {
      bank: 'kbz',
      user: 'kept',
      amount: 123.45,
      remark: 'before',
    });
    await control(first.url, 'lock', { bank: 'kbz', user: 'kept', locked: true });
    const before = await control(first.url, 'account', { bank: 'kbz', user: 'kept' });
    await first.stop();

    const second = await startSandboxBank({ port: 0, feedEveryMs: 0, stateFile });
    try {
      const after = await control(second.url, 'account', { bank: 'kbz', user: 'kept' });
      expect(after).toEqual(before);
      expect(after.locked).toBe(true);
      expect(after.subs[0].last.at(-1)).toMatchObject({ ref: txn.ref, amount: 123.45, remark: 'before' });
      // New references go on from the kept ones (never a reference twice).
      const next = await control(second.url, 'transaction', { bank: 'kbz', user: 'kept', amount: 1 });
      expect(next.ref).not.toBe(txn.ref);
      expect(next.balance).toBe(txn.balance + 1);
    } finally {
      await second.stop();
    }
    // Without the file, a bank starts afresh: the login's seeded history only.
    const fresh = await startSandboxBank({ port: 0, feedEveryMs: 0 });
    try {
      const seeded = await control(fresh.url, 'account', { bank: 'kbz', user: 'kept' });
      expect(seeded.locked).toBe(false);
      expect(seeded.subs[0].statements).toBe(before.subs[0].statements - 1);
    } finally {
      await fresh.stop();
    }
  });
});
