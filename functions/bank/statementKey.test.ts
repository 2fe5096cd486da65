import { describe, expect, it } from 'vitest';
import type { BankStatementLine } from './drivers/bankDriver.js';
import { statementKey, statementKeys } from './statementKey.js';

const line = (over: Partial<BankStatementLine> = {}): BankStatementLine => ({
  no: '001',
  inflow: true,
  name: 'U BA',
  remark: 'rent',
  amount: 100.1,
  date: '2026-11-23',
  time: '',
  ...over,
});

describe('statement keys', () => {
  it('come from the bank reference when there is one, whatever else the line says', () => {
    expect(statementKey(1, line({ ref: 'T1' }))).toBe(statementKey(1, line({ ref: 'T1', remark: 'other' })));
    expect(statementKey(1, line({ ref: 'T1' }))).not.toBe(statementKey(2, line({ ref: 'T1' })));
  });

  it('come from the fields otherwise, telling identical lines of one read apart by their place', () => {
    const keys = statementKeys(1, [line(), line(), line({ amount: 5 })]);
    expect(new Set(keys).size).toBe(3);
    expect(statementKeys(1, [line(), line()])).toEqual(keys.slice(0, 2));
    expect(statementKey(1, line({ amount: 100.1 }))).toBe(statementKey(1, line({ amount: 100.1000001 })));
  });
});
