// Storing a statement once per key (functions/bank/store.ts recordStatement) against the real
// local engine: what follows a stored statement (its notification) may fail, and the key must stay
// claimed, or the next poll or push would store the same statement again.
import { describe, expect, it } from 'vitest';
import { dynamoBankStore, type StoredStatement } from '../../functions/bank/store.js';
import { NotifyStatus } from '../../shared/enums.js';
import { emptyListQuery } from '../../shared/listQuery.js';
import { setupDynamo } from '../data/engine.js';

setupDynamo();

const statement = (key: string): Omit<StoredStatement, 'id'> => ({
  bank_name: 1,
  account_id: 1,
  sub_account_id: 1,
  sub_no: '0011223344',
  human_date: '2026-11-23',
  inflow: true,
  name: 'U Ba',
  amount: 10,
  remark: 'Order 1',
  ref: null,
  balance: null,
  key,
  send_date: '2026-11-23',
  send_time: '',
  notify_status: NotifyStatus.values.Pending,
  notified_at: null,
  created_at: Date.now(),
});

describe('storing a statement', () => {
  it('keeps its key when what follows the stored row fails, so the statement is never stored twice', async () => {
    const store = dynamoBankStore();
    const failing = store.recordStatement(statement('kbz-1'), () => {
      throw new Error('notification write failed');
    });
    await expect(failing).rejects.toThrow('notification write failed');
    expect(await store.recordStatement(statement('kbz-1'), undefined)).toBeUndefined();
    expect((await store.listStatements(emptyListQuery({ page_size: 0 }))).total_count).toBe(1);
  });

  it('gives its key back when the row itself was not written', async () => {
    const store = dynamoBankStore();
    // An id that is taken: the conditional write fails before anything follows it.
    const first = (await store.recordStatement(statement('kbz-2'), undefined))?.statement;
    const clash = store.recordStatement(statement('kbz-3'), undefined, { id: first?.id });
    await expect(clash).rejects.toThrow();
    const again = (await store.recordStatement(statement('kbz-3'), undefined))?.statement;
    expect(again?.id).toBeGreaterThan(first?.id as number);
  });
});
