// KBZ's portal: a JSON API with a bearer token. Every answer carries a business code
// (responseCode "0000" = success), money comes as "1,234.00" strings, dates as dd/MM/yyyy with no
// time, and each statement line has KBZ's transaction id and the sender's name.
import { z } from 'zod';
import { Bank } from '../../../shared/enums';
import type {
  BankDriver,
  BankDriverContext,
  BankSession,
  BankStatementLine,
  BankSubAccount,
  KbzSubAccountDetail,
} from './bankDriver';
import {
  BankAccountLockedError,
  BankSessionExpiredError,
  BankSubAccountUnusableError,
  BankUnexpectedDataError,
  BankWrongCredentialsError,
} from './errors';
import { DAY_MS, myanmarParts, readShape } from './portalShapes';
import { callName, type PortalRequestInit, type PortalResponse, portalRequest } from './portalRequest';

/** KBZ's business codes the driver acts on. */
const CODE = {
  ok: '0000',
  wrongCredentials: 'AUTH001',
  locked: 'AUTH003',
  sessionExpired: 'AUTH401',
  dormant: 'ACC004',
} as const;

/** The first statement fetch of a sub-account reads this many days back. */
const FIRST_FETCH_DAYS = 7;
/** Until this time of day (Myanmar) a statement fetch also reads yesterday. */
const LATE_POSTING_UNTIL = '01:00:00';
/** KBZ refuses periods over 31 days. */
const MAX_PERIOD_DAYS = 30;

const money = z
  .string()
  .regex(/^-?\d{1,3}(,\d{3})*(\.\d{1,2})?$/, 'not a KBZ amount')
  .transform((s) => Number(s.replace(/,/g, '')));
const kbzDate = z
  .string()
  .regex(/^\d{2}\/\d{2}\/\d{4}$/, 'not a dd/MM/yyyy date')
  .transform((s) => `${s.slice(6, 10)}-${s.slice(3, 5)}-${s.slice(0, 2)}`);

const envelope = z.object({ responseCode: z.string(), responseDesc: z.string().optional().default('') });
const loginData = z.object({ accessToken: z.string().min(1), expiresIn: z.number().int().positive().optional() });
const accountsData = z.object({
  accounts: z.array(
    z.object({
      accountNumber: z.string().min(1),
      accountStatus: z.string(),
      statusDescription: z.string().optional().default(''),
      customerName: z.string(),
      branchName: z.string(),
      accountType: z.string(),
      openingDate: kbzDate,
      productName: z.string(),
      balances: z.array(
        z.object({ balanceType: z.string(), amount: money, currency: z.string().optional().default('MMK') }),
      ),
    }),
  ),
});
const transactionsData = z.object({
  transactions: z.array(
    z.object({
      transactionId: z.string().min(1),
      transactionDate: kbzDate,
      creditDebit: z.enum(['CR', 'DR']),
      amount: money,
      senderName: z.string().optional().default(''),
      narration: z.string().optional().default(''),
    }),
  ),
});
const balancesData = z.object({
  balances: z.array(z.object({ accountNumber: z.string().min(1), availableBalance: money, ledgerBalance: money })),
});

/** dd/MM/yyyy of a YYYY-MM-DD date, as KBZ's filters take it. */
const toKbzDate = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
const isoDaysBefore = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);

/** A business answer: the envelope, then `data` read with `schema` when the code is 0000. */
function readKbz<S extends z.ZodType>(call: string, res: PortalResponse, schema: S) {
  const env = readShape(call, envelope.extend({ data: z.unknown().optional() }), res);
  if (env.responseCode === CODE.sessionExpired || res.status === 401)
    throw new BankSessionExpiredError(call, res.status);
  if (env.responseCode !== CODE.ok) return { code: env.responseCode, desc: env.responseDesc, data: undefined };
  const data = (readShape(call, z.object({ data: schema }), res) as { data: z.infer<S> }).data;
  return { code: env.responseCode, desc: env.responseDesc, data };
}

async function authed(ctx: BankDriverContext, session: BankSession, path: string) {
  const init: PortalRequestInit = { path, headers: { authorization: `Bearer ${session.token}` } };
  return { call: callName(init), res: await portalRequest(ctx, init) };
}

function unexpectedCode(call: string, code: string, desc: string, status: number): never {
  throw new BankUnexpectedDataError(call, `responseCode ${code}${desc ? ` (${desc})` : ''}`, status);
}

export const kbzDriver: BankDriver = {
  name: 'kbz-ibanking',
  bank: Bank.values.KBZ,

  async login(ctx) {
    const init: PortalRequestInit = {
      method: 'POST',
      path: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: ctx.credentials.user, password: ctx.credentials.pwd }),
    };
    const call = callName(init);
    const res = await portalRequest(ctx, init);
    const env = readShape(call, envelope, res);
    if (env.responseCode === CODE.wrongCredentials) throw new BankWrongCredentialsError(env.responseDesc, res.status);
    if (env.responseCode === CODE.locked) throw new BankAccountLockedError(env.responseDesc, res.status);
    if (env.responseCode !== CODE.ok) unexpectedCode(call, env.responseCode, env.responseDesc, res.status);
    const { data } = readShape(call, z.object({ data: loginData }), res);
    return {
      bank: Bank.values.KBZ,
      user: ctx.credentials.user,
      token: data.accessToken,
      ...(data.expiresIn ? { expires_at: Date.now() + data.expiresIn * 1000 } : {}),
    };
  },

  async listSubAccounts(ctx, session) {
    const { call, res } = await authed(ctx, session, '/api/v1/accounts');
    const out = readKbz(call, res, accountsData);
    if (!out.data) unexpectedCode(call, out.code, out.desc, res.status);
    return out.data.accounts.map((a): BankSubAccount => {
      const detail: KbzSubAccountDetail = {
        customer_name: a.customerName,
        account_branch: a.branchName,
        account_type: a.accountType,
        account_opening_date: a.openingDate,
        product_name: a.productName,
        balances: a.balances.map((b) => ({ type: b.balanceType, amount: b.amount, currency: b.currency })),
      };
      const available = a.balances.find((b) => b.balanceType === 'AVAILABLE') ?? a.balances[0];
      if (!available) throw new BankUnexpectedDataError(call, `no balance for account ${a.accountNumber}`, res.status);
      const usable = a.accountStatus === 'ACTIVE';
      return {
        no: a.accountNumber,
        available_balance: available.amount,
        usable,
        ...(usable ? {} : { unusable_reason: a.statusDescription || a.accountStatus }),
        detail,
      };
    });
  },

  async fetchStatements(ctx, session, { no, since }) {
    const now = myanmarParts(Date.now());
    const today = now.date;
    // KBZ filters by date only: every poll re-reads the cursor's day (today), and the poller keeps
    // each line once by its transaction id. In the first hour after midnight yesterday is read
    // too, for the lines KBZ still posts under yesterday's date.
    let from = since && /^\d{4}-\d{2}-\d{2}$/.test(since) ? since : isoDaysBefore(today, FIRST_FETCH_DAYS);
    if (from > today) from = today;
    if (now.time < LATE_POSTING_UNTIL && from > isoDaysBefore(today, 1)) from = isoDaysBefore(today, 1);
    if (from < isoDaysBefore(today, MAX_PERIOD_DAYS)) from = isoDaysBefore(today, MAX_PERIOD_DAYS);
    const query = `fromDate=${encodeURIComponent(toKbzDate(from))}&toDate=${encodeURIComponent(toKbzDate(today))}`;
    const { call, res } = await authed(
      ctx,
      session,
      `/api/v1/accounts/${encodeURIComponent(no)}/transactions?${query}`,
    );
    const out = readKbz(call, res, transactionsData);
    if (out.code === CODE.dormant) throw new BankSubAccountUnusableError(no, out.desc || 'dormant', res.status);
    if (!out.data) unexpectedCode(call, out.code, out.desc, res.status);
    const lines = out.data.transactions.map(
      (t): BankStatementLine => ({
        no,
        ref: t.transactionId,
        inflow: t.creditDebit === 'CR',
        name: t.senderName,
        remark: t.narration,
        amount: t.amount,
        date: t.transactionDate,
        time: '',
      }),
    );
    // Everything up to today was read: the next poll starts at today.
    return { lines, cursor: today };
  },

  async fetchBalances(ctx, session) {
    const { call, res } = await authed(ctx, session, '/api/v1/accounts/balances');
    const out = readKbz(call, res, balancesData);
    if (!out.data) unexpectedCode(call, out.code, out.desc, res.status);
    return out.data.balances.map((b) => ({
      no: b.accountNumber,
      available_balance: b.availableBalance,
      current_balance: b.ledgerBalance,
    }));
  },
};
