// The sandbox KBZ portal, under /kbz: a JSON API with a bearer token, dates as dd/MM/yyyy (date
// only), money as "1,234.00" strings, a business code in every answer (responseCode "0000" is
// success) and a sender name and transaction id on each statement line.
import type { IncomingMessage } from 'node:http';
import { bankLocalDayStart, bankLocalParts, type BankLogin, type SubAccount, type Txn } from './ledger';
import { kbzMoney, type PortalCall, type PortalKit, Reply } from './portalKit';

export const KBZ_CODES = {
  OK: '0000',
  WrongCredentials: 'AUTH001',
  Locked: 'AUTH003',
  SessionExpired: 'AUTH401',
  BadRequest: 'GEN400',
  Dormant: 'ACC004',
  NotFound: 'ACC404',
} as const;

const ok = (data: unknown) => Reply.json(200, { responseCode: KBZ_CODES.OK, responseDesc: 'Success', data });
const fail = (status: number, code: string, desc: string) =>
  Reply.json(status, { responseCode: code, responseDesc: desc });

const kbzDate = (ms: number) => {
  const p = bankLocalParts(ms);
  return `${p.dd}/${p.mm}/${p.yyyy}`;
};

/** dd/MM/yyyy -> start of that local day (epoch ms), or undefined. */
function parseKbzDate(text: string | null): number | undefined {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text ?? '');
  return m ? bankLocalDayStart(Number(m[3]), Number(m[2]), Number(m[1])) : undefined;
}

function accountRow(login: BankLogin, sub: SubAccount) {
  return {
    accountNumber: sub.no,
    accountStatus: sub.usable ? 'ACTIVE' : 'DORMANT',
    statusDescription: sub.usable ? 'Active' : sub.reason || 'Dormant account',
    customerName: login.holder,
    branchName: `${sub.branch} Branch`,
    accountType: sub.type,
    openingDate: kbzDate(Date.parse(`${sub.openedOn}T12:00:00Z`)),
    productName: sub.product,
    currency: 'MMK',
    balances: [
      { balanceType: 'AVAILABLE', amount: kbzMoney(sub.balance), currency: 'MMK' },
      { balanceType: 'LEDGER', amount: kbzMoney(sub.balance), currency: 'MMK' },
    ],
  };
}

function txnRow(t: Txn) {
  return {
    transactionId: `FT${t.ref}`,
    transactionDate: kbzDate(t.at),
    creditDebit: t.inflow ? 'CR' : 'DR',
    amount: kbzMoney(t.amount),
    senderName: t.name,
    narration: t.remark,
  };
}

const DAY_MS = 86_400_000;

export async function kbzPortal(req: IncomingMessage, path: string, url: URL, kit: PortalKit): Promise<Reply> {
  // The answer a switch asks for, in KBZ's style: an HTML 500 page, or JSON cut short.
  const failed = async (user: string | undefined, call: PortalCall) => {
    const f = await kit.failure('kbz', user, call);
    if (f === 'http500') return Reply.html(500, '<html><body><h1>500 Internal Server Error</h1></body></html>');
    if (f === 'malformed')
      return new Reply(200, '{"responseCode":"0000","data":{"acc', { 'content-type': 'application/json' });
    return undefined;
  };

  if (path === '/kbz/api/v1/auth/login' && req.method === 'POST') {
    const body = await kit.readBody(req).catch(() => undefined);
    const user = typeof body?.userId === 'string' ? body.userId.trim() : '';
    const password = typeof body?.password === 'string' ? body.password : '';
    if (!user || !password) return fail(400, KBZ_CODES.BadRequest, 'User ID and password are required');
    const early = await failed(user, 'login');
    if (early) return early;
    const login = kit.ledger.login('kbz', user);
    if (login.locked) return fail(200, KBZ_CODES.Locked, 'Your account is locked. Please contact 1880.');
    if (password !== login.password) return fail(200, KBZ_CODES.WrongCredentials, 'Invalid User ID or Password');
    const session = kit.openSession('kbz', login.user);
    return ok({
      accessToken: session.token,
      tokenType: 'Bearer',
      expiresIn: Math.floor(kit.sessionTtlMs / 1000),
      customerName: login.holder,
    });
  }

  const api = /^\/kbz\/api\/v1\/(.+)$/.exec(path);
  if (!api) return fail(404, KBZ_CODES.NotFound, 'Not found');
  const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const session = kit.session('kbz', token);
  if (!session) return fail(401, KBZ_CODES.SessionExpired, 'Session has expired. Please login again.');
  const login = kit.ledger.login('kbz', session.user);
  kit.ledger.advance(login);
  const route = api[1];

  if (route === 'accounts' && req.method === 'GET') {
    return (await failed(login.user, 'accounts')) ?? ok({ accounts: login.subs.map((s) => accountRow(login, s)) });
  }
  if (route === 'accounts/balances' && req.method === 'GET') {
    return (
      (await failed(login.user, 'balances')) ??
      ok({
        balances: login.subs.map((s) => ({
          accountNumber: s.no,
          availableBalance: kbzMoney(s.balance),
          ledgerBalance: kbzMoney(s.balance),
          currency: 'MMK',
        })),
      })
    );
  }
  const tx = /^accounts\/([^/]+)\/transactions$/.exec(route);
  if (tx && req.method === 'GET') {
    const early = await failed(login.user, 'statements');
    if (early) return early;
    const sub = login.subs.find((s) => s.no === decodeURIComponent(tx[1]));
    if (!sub) return fail(404, KBZ_CODES.NotFound, 'Account not found');
    if (!sub.usable) return fail(200, KBZ_CODES.Dormant, sub.reason || 'Account is dormant');
    const from = parseKbzDate(url.searchParams.get('fromDate'));
    const to = parseKbzDate(url.searchParams.get('toDate'));
    if (from === undefined || to === undefined || to < from)
      return fail(400, KBZ_CODES.BadRequest, 'fromDate and toDate must be dd/MM/yyyy, fromDate first');
    if (to - from > 31 * DAY_MS) return fail(400, KBZ_CODES.BadRequest, 'The period cannot exceed 31 days');
    const lines = sub.txns.filter((t) => t.at >= from && t.at < to + DAY_MS);
    return ok({ accountNumber: sub.no, transactions: lines.map(txnRow) });
  }
  return fail(404, KBZ_CODES.NotFound, 'Not found');
}
