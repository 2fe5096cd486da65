import { z } from 'zod';
import { MONITOR_INTERVAL_MAX_S, MONITOR_INTERVAL_MIN_S } from '../constants.js';
import {
  Bank,
  BankAccountStatus,
  BankNotificationCategory,
  NotifyStatus,
  PushChannel,
  PushStatus,
  SubAccountStatus,
  type EnumValue,
} from '../enums.js';
import { field, keyOrderFields, type RowOf } from '../listFields.js';
import type { ListFields } from '../listQuery.js';
import { integerRange, maxLength } from '../validators.js';
import { Bounds, httpUrl, requiredText } from './common.js';

// Bank monitoring (spec sections 1, 3, 4, 5, 7; issue 13): accounts, their sub-accounts, the
// statements and balance changes the poller records, and the bank notifications it creates.

export type BankValue = EnumValue<typeof Bank>;
export type BankAccountStatusValue = EnumValue<typeof BankAccountStatus>;
export type SubAccountStatusValue = EnumValue<typeof SubAccountStatus>;
export type NotifyStatusValue = EnumValue<typeof NotifyStatus>;
export type PushStatusValue = EnumValue<typeof PushStatus>;
export type BankNotificationCategoryValue = EnumValue<typeof BankNotificationCategory>;

export const BankMessages = {
  bank: 'Please choose KBZ (1) or AYA (2)',
  user: 'Please enter user',
  pwd: 'Please enter password',
  interval: 'Must between 5 and 120',
  range: 'Give a list of [start, end] seconds of the day',
  rangeBounds: 'Times must be between 00:00:00 and 24:00:00',
  rangeOrder: 'The start of a range must be before its end',
  rangeOverlap: 'Ranges must not overlap',
  webhook: 'Please enter webhook url',
  webhookInvalid: 'Please give the full address including http(s)://',
  apiKey: 'Please enter API key',
  apiKeyShort: 'A key this short is easy to guess; use 16 characters or more',
  status: 'Status must be 1 (Enable) or 99 (Disable)',
  nothingToChange:
    'Give at least one of interval, range, user, pwd, remark, mobile, holder, status, webhook and api_key',
  subIds: 'Please select some sub accounts first',
} as const;

/**
 * How a secret shows in an API row: this fixed text when one is stored, null when none is. It
 * says nothing of the value, not even its length; the audited reveal routes hand out the value
 * (GET /bank/bank-account/{id}/pwd and /api-key).
 */
export const SECRET_MASK = '******';

/**
 * API keys shorter than this are accepted (the spec asks only for a non-empty key) but warned
 * about: the inbound webhook takes statements from whoever holds the key.
 */
export const API_KEY_ADVISED_LENGTH = 16;

/** The warning for an API key about to be saved, or undefined when none is due. */
export function apiKeyWarning(key: string): string | undefined {
  const length = key.trim().length;
  return length > 0 && length < API_KEY_ADVISED_LENGTH ? BankMessages.apiKeyShort : undefined;
}

/** Seconds in a day: a monitor range ends at most here (24:00:00 = the end of the day). */
export const DAY_SECONDS = 86_400;

/** The range of a new account: the whole day. */
export const DEFAULT_MONITOR_RANGE: [number, number][] = [[0, 86_400]];

/** Ranges one account may have. */
export const MAX_MONITOR_RANGES = 24;

/** A bank chosen by its value (1 KBZ, 2 AYA), as the enum declares them. */
export const bankValue = (message: string) =>
  z.literal(Bank.options.map((o) => o.value) as [BankValue, ...BankValue[]], { error: message });

/** The statuses an operator sets (spec section 4); the others (2, 3, 9) come from the poller. */
export const SwitchStatus = z.literal([1, 99] as const satisfies readonly BankAccountStatusValue[], {
  error: BankMessages.status,
});
export type SwitchStatus = z.infer<typeof SwitchStatus>;

const secondOfDay = z
  .number({ error: BankMessages.range })
  .int(BankMessages.range)
  .min(0, BankMessages.rangeBounds)
  .max(DAY_SECONDS, BankMessages.rangeBounds);

/**
 * Monitor ranges: [start, end] pairs of seconds of the day in the configured time zone
 * (system config time_zone), start < end, no two overlapping. Sorted by start on the way in.
 */
export const MonitorRange = z
  .array(z.tuple([secondOfDay, secondOfDay], { error: BankMessages.range }), { error: BankMessages.range })
  .max(MAX_MONITOR_RANGES, `At most ${MAX_MONITOR_RANGES} ranges`)
  .superRefine((ranges, ctx) => {
    ranges.forEach(([start, end], i) => {
      if (start >= end) ctx.addIssue({ code: 'custom', path: [i], message: BankMessages.rangeOrder });
    });
    const sorted = ranges.map((r, i) => ({ r, i })).sort((a, b) => a.r[0] - b.r[0]);
    for (let k = 1; k < sorted.length; k++) {
      const prev = sorted[k - 1] as { r: [number, number] };
      const cur = sorted[k] as { r: [number, number]; i: number };
      // Touching ranges ([a, b] then [b, c]) do not overlap.
      if (cur.r[0] < prev.r[1]) ctx.addIssue({ code: 'custom', path: [cur.i], message: BankMessages.rangeOverlap });
    }
  })
  .transform((ranges) => [...ranges].sort((a, b) => a[0] - b[0]));
export type MonitorRange = [number, number][];

export const MonitorInterval = integerRange(MONITOR_INTERVAL_MIN_S, MONITOR_INTERVAL_MAX_S, {
  required: BankMessages.interval,
  number: BankMessages.interval,
  min: BankMessages.interval,
  max: BankMessages.interval,
});

const bankUser = requiredText(BankMessages.user).max(Bounds.name, `max length is ${Bounds.name}`);
const bankPwd = requiredText(BankMessages.pwd).max(Bounds.secret, `max length is ${Bounds.secret}`);

/**
 * POST /bank/bank-accounts. The account starts enabled (1), monitored all day (DEFAULT_MONITOR_RANGE)
 * at the configured default interval (system config bank.default_monitor_interval), so a wrong
 * password shows as Incorrect at its first poll.
 */
export const NewBankAccountBody = z.object({
  bank_name: bankValue(BankMessages.bank).default(Bank.values.KBZ),
  user: bankUser,
  pwd: bankPwd,
});
export type NewBankAccountBody = z.infer<typeof NewBankAccountBody>;

/**
 * PUT /bank/bank-account/{id}: any of these, each checked with the spec's rule and text, every
 * string trimmed. `webhook` is also checked against the outbound URL guard by the server (a
 * private or metadata address is refused with the guard's text); null removes it.
 */
export const UpdateBankAccountBody = z
  .object({
    interval: MonitorInterval.optional(),
    range: MonitorRange.optional(),
    user: bankUser.optional(),
    pwd: bankPwd.optional(),
    remark: maxLength(Bounds.remark).optional(),
    mobile: maxLength(40).optional(),
    holder: maxLength(Bounds.name).optional(),
    status: SwitchStatus.optional(),
    webhook: httpUrl(BankMessages.webhook, BankMessages.webhookInvalid).nullable().optional(),
    api_key: requiredText(BankMessages.apiKey).max(Bounds.secret, `max length is ${Bounds.secret}`).optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: BankMessages.nothingToChange });
export type UpdateBankAccountBody = z.infer<typeof UpdateBankAccountBody>;

/** PUT /bank/sub-accounts/batch: enable (1) or disable (99) every selected sub-account. */
export const BatchSubAccountsBody = z.object({
  sub_account_ids: z
    .array(z.number({ error: BankMessages.subIds }).int().positive(), { error: BankMessages.subIds })
    .min(1, BankMessages.subIds)
    .max(Bounds.ids, `At most ${Bounds.ids} sub accounts`),
  status: SwitchStatus,
});
export type BatchSubAccountsBody = z.infer<typeof BatchSubAccountsBody>;

/** PUT /bank/sub-accounts/{id}. */
export const UpdateSubAccountBody = z.object({ status: SwitchStatus });
export type UpdateSubAccountBody = z.infer<typeof UpdateSubAccountBody>;

// ---- Lists: one declaration each; the row types derive from them (shared/listFields.ts). ----
// A list declaration holds what the row stores and a list shows (with what a list may do with it);
// the `…ReplyFields` beside some hold what a reply adds at read time (masks, joined names, the
// poller's state), so both the API row and the stored shape derive from declarations.

export const bankAccountListFields = {
  ...keyOrderFields,
  bank_name: field.enum(Bank, { sort: 'bounded', filter: 'key' }),
  user: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  holder: field.text<string>({ sort: 'bounded', filter: 'bounded', search: true }),
  mobile: field.text<string>({ sort: 'bounded', filter: 'bounded', search: true }),
  remark: field.text<string>({ filter: 'bounded', search: true }),
  monitor_interval: field.number({ sort: 'bounded', filter: 'bounded' }),
  /** [start, end] seconds of the day in the configured time zone. */
  monitor_range: field.shown<MonitorRange>(),
  status: field.enum(BankAccountStatus, { sort: 'bounded', filter: 'key' }),
  webhook: field.shown<string | null>(),
  /** Enabled, inside a range, and no successful poll for 3 intervals (docs/bank-monitor.md). */
  stale: field.boolean({ filter: 'key' }),
  /** When the current stale episode began (ms); null when not stale. */
  stale_since: field.shown<number | null>(),
} as const satisfies ListFields;

/**
 * What a bank account reply adds to the stored row: the secrets as masks, and the poller's state
 * (kept on the account's small poll record, docs/bank-monitor.md "One poll"), so shown but never
 * sorted or filtered by.
 */
export const bankAccountReplyFields = {
  /** SECRET_MASK; GET /bank/bank-account/{id}/pwd reveals it. */
  pwd: field.shown<string>(),
  /** SECRET_MASK when one is set, else null; GET /bank/bank-account/{id}/api-key reveals it. */
  api_key: field.shown<string | null>(),
  /** A poll holds the account's lease right now. */
  processing: field.shown<boolean>(),
  /** End of the last poll, successful or not (ms); null before the first. */
  last_refresh: field.shown<number | null>(),
  /** End of the last successful poll (ms). */
  last_success: field.shown<number | null>(),
  /** Why the last poll failed (the driver's text), null after a success. */
  last_error: field.shown<string | null>(),
} as const;

export type BankAccount = RowOf<typeof bankAccountListFields & typeof bankAccountReplyFields> & {
  updated_at?: number;
};

/** GET /bank/bank-accounts/{id}: the account, its sub-accounts, and the zone its ranges are in. */
export interface BankAccountDetail extends BankAccount {
  subs: SubAccount[];
  /** The configured time zone (system config time_zone) monitor ranges are read in. */
  time_zone: string;
}

/** KBZ's detail of a sub-account (spec section 3), as the driver reads it. */
export const KbzSubDetail = z.object({
  customer_name: z.string(),
  account_branch: z.string(),
  account_type: z.string(),
  /** YYYY-MM-DD */
  account_opening_date: z.string(),
  product_name: z.string(),
  /** The balances the portal shows (e.g. available, ledger), as it names them. */
  balances: z.array(z.object({ type: z.string(), amount: z.number(), currency: z.string() })),
});
export type KbzSubDetail = z.infer<typeof KbzSubDetail>;

/** AYA's detail of a sub-account (spec section 3), as the driver reads it. */
export const AyaSubDetail = z.object({
  name: z.string(),
  branch: z.string(),
  currency: z.string(),
  /** YYYY-MM-DD */
  open_date: z.string(),
  available_balance: z.number(),
  /** Percent per year. */
  interest_rate: z.number(),
  current_balance: z.number(),
  /** YYYY-MM-DD HH:mm:ss in the bank's time, '' when none. */
  last_transaction_date: z.string(),
  hold_amount: z.number(),
});
export type AyaSubDetail = z.infer<typeof AyaSubDetail>;

export type SubAccountDetail = KbzSubDetail | AyaSubDetail;

export const subAccountListFields = {
  ...keyOrderFields,
  bank_name: field.enum(Bank, { sort: 'bounded', filter: 'key' }),
  account_id: field.number({ sort: 'bounded', filter: 'key' }),
  /** The account number. */
  no: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  available_balance: field.number<number | null>({ sort: 'bounded', filter: 'bounded' }),
  status: field.enum(SubAccountStatus, { sort: 'bounded', filter: 'key' }),
  processing: field.boolean({ filter: 'bounded' }),
  last_refresh: field.datetime<number | null>({ sort: 'bounded', filter: 'bounded' }),
  /** KbzSubDetail for bank 1, AyaSubDetail for bank 2; null before the bank gave one. */
  detail: field.shown<SubAccountDetail | null>(),
} as const satisfies ListFields;

/** What a sub-account reply adds: its account's user, joined in. */
export const subAccountReplyFields = {
  account: field.shown<{ user: string } | null>(),
} as const;

export type SubAccount = RowOf<typeof subAccountListFields & typeof subAccountReplyFields> & { updated_at?: number };

/** What a statement or balance stat reply adds: its sub-account's number, from the stored `sub_no`. */
export const subNumberReplyFields = {
  sub_account: field.shown<{ no: string } | null>(),
} as const;

export const statementListFields = {
  ...keyOrderFields,
  bank_name: field.enum(Bank, { sort: 'bounded', filter: 'key' }),
  account_id: field.number({ sort: 'bounded', filter: 'key' }),
  sub_account_id: field.number({ sort: 'bounded', filter: 'key' }),
  /** KBZ: 'YYYY-MM-DD' (the bank gives the date only); AYA: 'YYYY-MM-DD HH:mm:ss'. */
  human_date: field.text({ sort: 'bounded', filter: 'bounded' }),
  inflow: field.boolean({ filter: 'bounded' }),
  /** The sender (KBZ); empty for AYA, which gives none. */
  name: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  /** Always positive; `inflow` says its direction. */
  amount: field.number({ sort: 'bounded', filter: 'bounded' }),
  notify_status: field.enum(NotifyStatus, { sort: 'bounded', filter: 'bounded' }),
  notified_at: field.datetime<number | null>({ sort: 'bounded', filter: 'bounded' }),
  remark: field.shown<string>(),
  /** The bank's own reference, when it gives one; the store key comes from it (or from the fields). */
  ref: field.shown<string | null>(),
  /** Balance after this statement, when the bank gives it. */
  balance: field.shown<number | null>(),
} as const satisfies ListFields;

export type Statement = RowOf<typeof statementListFields & typeof subNumberReplyFields> & { updated_at?: number };

export const balanceStatListFields = {
  ...keyOrderFields,
  bank_name: field.enum(Bank, { sort: 'bounded', filter: 'key' }),
  account_id: field.number({ sort: 'bounded', filter: 'key' }),
  sub_account_id: field.number({ sort: 'bounded', filter: 'key' }),
  pre_bal: field.number({ sort: 'bounded', filter: 'bounded' }),
  cur_bal: field.number({ sort: 'bounded', filter: 'bounded' }),
  /** cur_bal − pre_bal. */
  amount: field.number({ sort: 'bounded', filter: 'bounded' }),
  /** The statements recorded between the two balances add up to `amount`. */
  reconciled: field.boolean({ filter: 'key' }),
  /** amount − (signed sum of those statements); 0 when reconciled. */
  difference: field.number({ sort: 'bounded', filter: 'bounded' }),
  notify_status: field.enum(NotifyStatus, { sort: 'bounded', filter: 'bounded' }),
  notified_at: field.datetime<number | null>({ sort: 'bounded', filter: 'bounded' }),
  /** Signed sum of the statements recorded between the two balances, and how many. */
  statements_sum: field.shown<number>(),
  statements_count: field.shown<number>(),
} as const satisfies ListFields;

export type BalanceStat = RowOf<typeof balanceStatListFields & typeof subNumberReplyFields> & { updated_at?: number };

export const bankNotificationListFields = {
  ...keyOrderFields,
  /** The statement (category 1) or balance stat (category 2) it is about; the account for category 3. */
  business_id: field.number({ sort: 'bounded', filter: 'bounded' }),
  account_id: field.number({ sort: 'bounded', filter: 'key' }),
  // Filtered within the rows read, not by an index: no screen filters by it, and a slot would cost
  // every notification one more kept-count write (docs/bank-monitor.md "Cost").
  sub_account_id: field.number<number | null>({ sort: 'bounded', filter: 'bounded' }),
  category: field.enum(BankNotificationCategory, { sort: 'bounded', filter: 'key' }),
  // Per channel (spec section 3, issue 15): the push status (0 NoNeed, 1 Pending, 2 Pushed) with the
  // time it was pushed, and the notify status of its attempts, which says why a channel did not push
  // (docs/notifications.md "Statuses"). The push status follows the notify status (channelStatus.ts).
  status_tg: field.enum(PushStatus, { sort: 'bounded', filter: 'key' }),
  pushed_tg_at: field.datetime<number | null>({ sort: 'bounded', filter: 'bounded' }),
  notify_tg: field.enum(NotifyStatus, { sort: 'bounded', filter: 'bounded' }),
  status_webhook: field.enum(PushStatus, { sort: 'bounded', filter: 'key' }),
  pushed_webhook_at: field.datetime<number | null>({ sort: 'bounded', filter: 'bounded' }),
  notify_webhook: field.enum(NotifyStatus, { sort: 'bounded', filter: 'key' }),
  /** Of the whole notification; the statement's or balance stat's notify_status holds the same value. */
  notify_status: field.enum(NotifyStatus, { sort: 'bounded', filter: 'bounded' }),
  context: field.shown<BankNotificationContext>(),
} as const satisfies ListFields;

/** What a bank notification says, by kind (the delivery issue renders and sends it). */
export type BankNotificationContext =
  | {
      kind: 'statement';
      bank: BankValue;
      account: string;
      sender: string;
      remark: string;
      send_date: string;
      send_time: string;
      amount: string;
      inflow: boolean;
    }
  | {
      kind: 'balance';
      bank: BankValue;
      account: string;
      pre_bal: string;
      cur_bal: string;
      amount: string;
      /** False when the statements between the two balances do not add up (a missed or extra statement). */
      reconciled: boolean;
      difference: string;
    }
  | { kind: 'stale'; bank: BankValue; user: string; since: number; interval: number }
  | { kind: 'recovered'; bank: BankValue; user: string; stale_since: number; recovered_at: number };

/** What a bank notification reply adds: its account and sub-account, from the names stored with it. */
export const bankNotificationReplyFields = {
  account: field.shown<{ bank_name: BankValue; user: string } | null>(),
  sub: field.shown<{ no: string } | null>(),
} as const;

export type BankNotification = RowOf<typeof bankNotificationListFields & typeof bankNotificationReplyFields> & {
  updated_at?: number;
};

export const bankNotificationHistoryListFields = {
  ...keyOrderFields,
  notification_id: field.number({ sort: 'bounded', filter: 'key' }),
  channel: field.enum(PushChannel, { sort: 'bounded', filter: 'key' }),
  callback_url: field.text<string | null>({ filter: 'bounded', search: true }),
  /** The HTTP status (webhook) or the chat API's code. */
  code: field.number<number | null>({ sort: 'bounded', filter: 'bounded' }),
  remark: field.text<string | null>({ filter: 'bounded', search: true }),
  /** What was sent (query or headers without secrets), and the body. */
  params: field.shown<unknown>(),
  content: field.shown<unknown>(),
  /** The answer, cut to a bounded length. */
  resp: field.shown<string | null>(),
} as const satisfies ListFields;

export type BankNotificationHistory = RowOf<typeof bankNotificationHistoryListFields> & { updated_at?: number };

/** GET /bank/bank-account/{id}/pwd and /api-key: one secret, rate limited and audited. */
export interface RevealedBankSecret {
  id: number;
  pwd?: string;
  api_key?: string;
}

/** POST /bank/bank-account/{id}/refresh, /refresh-sts and /bank/sub-accounts/{id}/refresh-sts. */
export interface BankPollOutcome {
  account_id: number;
  /** False when the lease was held by a running poll (nothing was done) or the bank refused. */
  polled: boolean;
  status: BankAccountStatusValue;
  subs: number;
  new_statements: number;
  new_balance_stats: number;
  /** The driver's text when the poll failed. */
  error: string | null;
}
