// Rows and a list handler for the bank screen tests: the fake list applies the real list protocol.
import { applyListQuery } from '@shared/applyListQuery';
import { type ListFields, parseListQuery } from '@shared/listQuery';
import type { BankAccountDetail, Statement, SubAccount } from '@shared/schemas/bank';
import { readPath } from '@/components/table';
import type { ApiCall } from '@/test/stubApi';

const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);

export const listOf =
  <T>(rows: T[], fields: ListFields) =>
  (call: ApiCall) =>
    applyListQuery(rows, parseListQuery(call.params, fields), readPath);

export function makeSub(over: Partial<SubAccount> = {}): SubAccount {
  return {
    id: 11,
    bank_name: 1,
    account_id: 5,
    account: { user: 'kbz-user' },
    no: '0011-2233-4455',
    available_balance: 1500.5,
    status: 1,
    processing: false,
    last_refresh: T0,
    created_at: T0,
    detail: {
      customer_name: 'U Aung',
      account_branch: 'Yangon Main',
      account_type: 'Savings',
      account_opening_date: '2020-02-03',
      product_name: 'KBZ Special Savings',
      balances: [{ type: 'Available', amount: 1500.5, currency: 'MMK' }],
    },
    ...over,
  };
}

export function makeAccount(over: Partial<BankAccountDetail> = {}): BankAccountDetail {
  return {
    id: 5,
    bank_name: 1,
    user: 'kbz-user',
    pwd: '******',
    holder: 'U Aung',
    mobile: '09123456',
    remark: '',
    monitor_interval: 30,
    monitor_range: [[0, 86_400]],
    status: 1,
    processing: false,
    last_refresh: T0,
    last_success: T0,
    stale: false,
    stale_since: null,
    last_error: null,
    webhook: null,
    api_key: null,
    created_at: T0,
    time_zone: 'Asia/Yangon',
    subs: [makeSub(), makeSub({ id: 12, no: '0011-9999-0000', status: 99 })],
    ...over,
  };
}

export function makeStatement(over: Partial<Statement> = {}): Statement {
  return {
    id: 101,
    bank_name: 1,
    account_id: 5,
    sub_account_id: 11,
    sub_account: { no: '0011-2233-4455' },
    human_date: '2026-01-05',
    inflow: true,
    name: 'Daw Su',
    amount: 25000,
    remark: 'transfer',
    ref: null,
    balance: null,
    notify_status: -1,
    notified_at: null,
    created_at: T0,
    ...over,
  };
}
