// AYA's portal: a web login (a CSRF token from the login page, a form post, a session cookie),
// then the JSON API its pages call: numbers as numbers, ISO date-times in Myanmar time, no sender
// and no transaction reference (the poller keys AYA's lines by their fields). An expired session
// is sent back to the login page with a 302.
import { z } from 'zod';
import { Bank } from '../../../shared/enums';
import type {
  AyaSubAccountDetail,
  BankDriver,
  BankDriverContext,
  BankSession,
  BankStatementLine,
  BankSubAccount,
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

const COOKIE = 'AYASESSIONID';
const FIRST_FETCH_DAYS = 7;
/** Lines per history page (the portal's maximum) and the most pages one fetch reads. */
const PAGE_SIZE = 100;
const MAX_PAGES = 50;

const dateTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/, 'not a yyyy-MM-ddTHH:mm:ss date-time');
const amount = z.number().finite();

const success = <S extends z.ZodType>(data: S) => z.object({ status: z.literal('SUCCESS'), data });
const failedShape = z.object({
  status: z.literal('FAILED'),
  error: z.object({ code: z.string(), message: z.string() }),
});

const accountsData = z.array(
  z.object({
    acctNo: z.string().min(1),
    acctName: z.string(),
    branchName: z.string(),
    ccy: z.string(),
    openDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'not a yyyy-MM-dd date'),
    availBal: amount,
    currBal: amount,
    holdAmt: amount,
    intRate: z.string().regex(/^\d+(\.\d+)?$/, 'not a rate'),
    lastTxnDateTime: dateTime.nullable(),
    acctStatus: z.string(),
  }),
);
const historyData = z.object({
  items: z.array(z.object({ postDate: dateTime, drcr: z.enum(['C', 'D']), amount, description: z.string() })),
  page: z.number().int(),
  totalPages: z.number().int(),
});
const balancesData = z.array(z.object({ acctNo: z.string().min(1), availBal: amount, currBal: amount }));

/** The login page's CSRF token, from its hidden form field. */
const csrfOf = (html: string) => /name="_csrf"\s+value="([^"]+)"/.exec(html)?.[1];
/** The error the login page shows, as `data-error="CODE">message<`. */
const loginErrorOf = (html: string) => {
  const m = /data-error="([A-Z_]+)"[^>]*>([^<]*)</.exec(html);
  return m ? { code: m[1], message: m[2].trim() } : undefined;
};

function isLoginRedirect(res: PortalResponse): boolean {
  return res.status >= 300 && res.status < 400 && /\/ib\/login/.test(String(res.headers.location ?? ''));
}

async function authed(ctx: BankDriverContext, session: BankSession, path: string) {
  const init: PortalRequestInit = { path, headers: { cookie: `${COOKIE}=${session.token}` } };
  const call = callName(init);
  const res = await portalRequest(ctx, init);
  if (isLoginRedirect(res) || res.status === 401) throw new BankSessionExpiredError(call, res.status);
  return { call, res };
}

/** `data` of a SUCCESS answer; a FAILED answer is returned for the caller to judge. */
function readAya<S extends z.ZodType>(call: string, res: PortalResponse, schema: S) {
  const head = readShape(call, z.object({ status: z.enum(['SUCCESS', 'FAILED']) }), res);
  if (head.status === 'FAILED') return { failed: readShape(call, failedShape, res).error, data: undefined };
  return { failed: undefined, data: (readShape(call, success(schema), res) as { data: z.infer<S> }).data };
}

function failedAnswer(call: string, error: { code: string; message: string }, status: number): never {
  throw new BankUnexpectedDataError(call, `${error.code} (${error.message})`, status);
}

export const ayaDriver: BankDriver = {
  name: 'aya-ibanking',
  bank: Bank.values.AYA,

  async login(ctx) {
    const pageInit: PortalRequestInit = { path: '/ib/login' };
    const page = await portalRequest(ctx, pageInit);
    const csrf = csrfOf(page.body);
    const pre = page.setCookies[COOKIE];
    if (page.status !== 200 || !csrf || !pre)
      throw new BankUnexpectedDataError(
        callName(pageInit),
        'no login form (CSRF token and session cookie)',
        page.status,
      );
    const postInit: PortalRequestInit = {
      method: 'POST',
      path: '/ib/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `${COOKIE}=${pre}` },
      body: new URLSearchParams({
        _csrf: csrf,
        username: ctx.credentials.user,
        password: ctx.credentials.pwd,
      }).toString(),
    };
    const call = callName(postInit);
    const res = await portalRequest(ctx, postInit);
    const token = res.setCookies[COOKIE];
    if (res.status === 302 && token && !isLoginRedirect(res))
      return { bank: Bank.values.AYA, user: ctx.credentials.user, token, cookies: { [COOKIE]: token } };
    const error = res.status === 200 ? loginErrorOf(res.body) : undefined;
    if (error?.code === 'INVALID_CREDENTIALS') throw new BankWrongCredentialsError(error.message, res.status);
    if (error?.code === 'USER_LOCKED') throw new BankAccountLockedError(error.message, res.status);
    throw new BankUnexpectedDataError(
      call,
      error ? `${error.code} (${error.message})` : `no session after login (HTTP ${res.status})`,
      res.status,
    );
  },

  async listSubAccounts(ctx, session) {
    const { call, res } = await authed(ctx, session, '/ib/api/accounts');
    const out = readAya(call, res, accountsData);
    if (!out.data) failedAnswer(call, out.failed, res.status);
    return out.data.map((a): BankSubAccount => {
      const detail: AyaSubAccountDetail = {
        name: a.acctName,
        branch: a.branchName,
        currency: a.ccy,
        open_date: a.openDate,
        available_balance: a.availBal,
        interest_rate: Number(a.intRate),
        current_balance: a.currBal,
        last_transaction_date: a.lastTxnDateTime ? a.lastTxnDateTime.replace('T', ' ') : '',
        hold_amount: a.holdAmt,
      };
      const usable = a.acctStatus === 'ACTIVE';
      return {
        no: a.acctNo,
        available_balance: a.availBal,
        usable,
        ...(usable ? {} : { unusable_reason: a.acctStatus }),
        detail,
      };
    });
  },

  async fetchStatements(ctx, session, { no, since }) {
    const first = myanmarParts(Date.now() - FIRST_FETCH_DAYS * DAY_MS);
    // The cursor is the newest line's time, read again (inclusive): a line posted later in the
    // same second is not missed, and the poller keeps the repeated one once.
    const from = since && dateTime.safeParse(since).success ? since : `${first.date}T${first.time}`;
    const lines: BankStatementLine[] = [];
    let cursor = from;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const q = `from=${encodeURIComponent(from)}&page=${page}&size=${PAGE_SIZE}`;
      const { call, res } = await authed(ctx, session, `/ib/api/accounts/${encodeURIComponent(no)}/history?${q}`);
      const out = readAya(call, res, historyData);
      if (out.failed?.code === 'ACCT_FROZEN') throw new BankSubAccountUnusableError(no, out.failed.message, res.status);
      if (!out.data) failedAnswer(call, out.failed, res.status);
      for (const t of out.data.items) {
        lines.push({
          no,
          inflow: t.drcr === 'C',
          name: '',
          remark: t.description,
          amount: t.amount,
          date: t.postDate.slice(0, 10),
          time: t.postDate.slice(11, 19),
        });
        if (t.postDate > cursor) cursor = t.postDate;
      }
      if (page >= out.data.totalPages) break;
    }
    return { lines, cursor };
  },

  async fetchBalances(ctx, session) {
    const { call, res } = await authed(ctx, session, '/ib/api/balances');
    const out = readAya(call, res, balancesData);
    if (!out.data) failedAnswer(call, out.failed, res.status);
    return out.data.map((b) => ({ no: b.acctNo, available_balance: b.availBal, current_balance: b.currBal }));
  },
};
