import type {
  BankAccount,
  BankAccountDetail,
  BankPollOutcome,
  BatchSubAccountsBody,
  NewBankAccountBody,
  RevealedBankSecret,
  SubAccount,
  SwitchStatus,
  UpdateBankAccountBody,
} from '@shared/schemas/bank';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { queryKeys } from '@/api/queryKeys';
import { request } from '@/api/request';
import { toast } from '@/app/toast';
import { t } from '@/i18n';

/** What Enable and Disable set on an account or a sub-account (spec section 4). */
export const SWITCH = { enable: 1, disable: 99 } as const satisfies Record<string, SwitchStatus>;

/** Query-key roots; the tables' keys start with their resource names. */
export const BANK_ACCOUNTS = 'bankAccounts';
export const BANK_SUB_ACCOUNTS = 'bankSubAccounts';
export const BANK_STATEMENTS = 'bankStatements';
export const BANK_BALANCE_STATS = 'bankBalanceStats';

/** Accounts, their detail and the sub-account list show each other's state, so a change refreshes them all. */
export function refreshBankLists(client: QueryClient): Promise<void> {
  return Promise.all(
    [BANK_ACCOUNTS, BANK_SUB_ACCOUNTS].map((name) => client.invalidateQueries({ queryKey: queryKeys.all(name) })),
  ).then(() => undefined);
}

export function createBankAccount(body: NewBankAccountBody): Promise<BankAccount> {
  return request<BankAccount>({
    method: 'POST',
    url: '/bank/bank-accounts',
    data: body,
    successTip: 'Add bank account success',
    failureTip: 'Add bank account failed',
  });
}

export const bankAccountQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.detail(BANK_ACCOUNTS, id),
    queryFn: ({ signal }) =>
      request<BankAccountDetail>({ url: `/bank/bank-accounts/${id}`, signal, failureTip: 'Loading account failed' }),
  });

/** One field of PUT /bank/bank-account/{id} per call: each has its own tips (spec section 8). */
export type BankAccountField = keyof UpdateBankAccountBody;

const accountTips: Record<BankAccountField, { successTip?: string; failureTip: string }> = {
  interval: { successTip: 'Update Monitor Interval Success.', failureTip: 'Update Monitor Interval failed.' },
  range: { successTip: 'Update Monitor Range Success.', failureTip: 'Update Monitor Range failed.' },
  user: { successTip: 'Update User Success.', failureTip: 'Update User failed.' },
  pwd: { successTip: 'Update Pwd Success.', failureTip: 'Update Pwd failed.' },
  remark: { successTip: 'Update Remark Success.', failureTip: 'Update Remark failed.' },
  mobile: { successTip: 'Update Mobile Success.', failureTip: 'Update Mobile failed.' },
  holder: { successTip: 'Update Holder Success.', failureTip: 'Update Holder failed.' },
  // The button itself changes to say the new state; the spec names no success tip for it.
  status: { failureTip: 'Switch account failed' },
  webhook: { successTip: 'Update Account Success.', failureTip: 'Update Account failed' },
  api_key: { successTip: 'Update Account Success.', failureTip: 'Update Account failed' },
};

export function updateBankAccount<F extends BankAccountField>(
  account: Pick<BankAccount, 'id'>,
  field: F,
  value: NonNullable<UpdateBankAccountBody[F]> | null,
): Promise<BankAccount> {
  return request<BankAccount>({
    method: 'PUT',
    url: `/bank/bank-account/${account.id}`,
    data: { [field]: value },
    ...accountTips[field],
  });
}

/**
 * A poll the server ran but the bank refused (wrong password, locked, unexpected data) answers 200
 * with the driver's text; the caller sees it as a failure with that reason.
 */
async function pollTips(outcome: Promise<BankPollOutcome>, tips: { success?: string; failure: string }) {
  const result = await outcome;
  if (result.error) {
    toast.error(t(tips.failure), result.error);
    throw new Error(result.error);
  }
  if (tips.success) toast.success(t(tips.success));
  return result;
}

/** Init: the account's sub-accounts are read from the bank (POST /bank/bank-account/{id}/refresh). */
export function initBankAccount(account: Pick<BankAccount, 'id'>): Promise<BankPollOutcome> {
  return pollTips(
    request<BankPollOutcome>({
      method: 'POST',
      url: `/bank/bank-account/${account.id}/refresh`,
      failureTip: 'Init failed',
    }),
    { success: 'Init success', failure: 'Init failed' },
  );
}

/** One password, from the audited, rate-limited reveal call; lists carry a mask only. */
export async function revealBankPassword(account: Pick<BankAccount, 'id'>): Promise<string> {
  const revealed = await request<RevealedBankSecret>({
    url: `/bank/bank-account/${account.id}/pwd`,
    failureTip: 'Show password failed.',
  });
  return revealed.pwd ?? '';
}

export async function revealBankApiKey(account: Pick<BankAccount, 'id'>): Promise<string> {
  const revealed = await request<RevealedBankSecret>({
    url: `/bank/bank-account/${account.id}/api-key`,
    failureTip: 'Show API key failed.',
  });
  return revealed.api_key ?? '';
}

export function switchSubAccount(sub: Pick<SubAccount, 'id'>, status: SwitchStatus): Promise<SubAccount> {
  return request<SubAccount>({
    method: 'PUT',
    url: `/bank/sub-accounts/${sub.id}`,
    data: { status },
    failureTip: 'Switch sub account failed',
  });
}

export function batchSwitchSubAccounts(body: BatchSubAccountsBody): Promise<unknown> {
  const enable = body.status === SWITCH.enable;
  return request<unknown>({
    method: 'PUT',
    url: '/bank/sub-accounts/batch',
    data: body,
    successTip: enable ? 'Batch enable sub accounts success' : 'Batch disabled sub accounts success',
    failureTip: enable ? 'Batch enable sub accounts failed' : 'Batch disabled sub accounts failed',
  });
}

/** Polls one sub-account's statements now (POST /bank/sub-accounts/{id}/refresh-sts). */
export function refreshSubStatements(sub: Pick<SubAccount, 'id'>): Promise<BankPollOutcome> {
  return pollTips(
    request<BankPollOutcome>({
      method: 'POST',
      url: `/bank/sub-accounts/${sub.id}/refresh-sts`,
      failureTip: 'Refresh failed.',
    }),
    { failure: 'Refresh failed.' },
  );
}
