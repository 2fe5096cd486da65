// The sandbox AYA portal, under /aya: a web login form (a CSRF token from the login page, a
// form post, a session cookie), then a JSON API the portal's own pages call, with numbers as
// numbers, ISO date-times in Myanmar time, no sender and no transaction reference. An expired
// session is sent back to the login page (302), as a web portal does.
import type { IncomingMessage } from 'node:http';
import { bankLocalParts, BANK_UTC_OFFSET_MS, type BankLogin, type SubAccount, type Txn, toMajor } from './ledger';
import { cookieOf, newToken, type PortalCall, type PortalKit, Reply } from './portalKit';

export const AYA_COOKIE = 'AYASESSIONID';

const ayaDateTime = (ms: number) => {
  const p = bankLocalParts(ms);
  return `${p.yyyy}-${p.mm}-${p.dd}T${p.time}`;
};

/** yyyy-MM-ddTHH:mm:ss (Myanmar time) -> epoch ms, or undefined. */
function parseAyaDateTime(text: string | null): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/.exec(text ?? '');
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  return Date.UTC(y, mo - 1, d, h, mi, s) - BANK_UTC_OFFSET_MS;
}

const ok = (data: unknown) => Reply.json(200, { status: 'SUCCESS', data });
const failed = (code: string, message: string, status = 200) =>
  Reply.json(status, { status: 'FAILED', error: { code, message } });

function loginPage(csrf: string, error?: { code: string; message: string }, expired = false): string {
  const alert = error
    ? `<div class="alert alert-danger" data-error="${error.code}">${error.message}</div>`
    : expired
      ? '<div class="alert alert-info" data-error="SESSION_TIMEOUT">Your session has timed out. Please log in again.</div>'
      : '';
  return `<!doctype html><html><head><title>AYA iBanking</title></head><body>
<h1>AYA Internet Banking</h1>${alert}
<form method="post" action="/aya/ib/login">
<input type="hidden" name="_csrf" value="${csrf}">
<label>Username <input name="username"></label><label>Password <input type="password" name="password"></label>
<button type="submit">Log in</button></form></body></html>`;
}

function accountRow(login: BankLogin, sub: SubAccount) {
  const last = sub.txns.at(-1);
  return {
    acctNo: sub.no,
    acctName: login.holder,
    branchName: sub.branch,
    ccy: 'MMK',
    openDate: sub.openedOn,
    availBal: toMajor(sub.balance - sub.hold),
    currBal: toMajor(sub.balance),
    holdAmt: toMajor(sub.hold),
    intRate: sub.interestRate.toFixed(2),
    lastTxnDateTime: last ? ayaDateTime(last.at) : null,
    acctStatus: sub.usable ? 'ACTIVE' : 'FROZEN',
    acctType: sub.type,
  };
}

function txnRow(t: Txn) {
  return { postDate: ayaDateTime(t.at), drcr: t.inflow ? 'C' : 'D', amount: toMajor(t.amount), description: t.remark };
}

const PAGE_SIZE_MAX = 100;

export async function ayaPortal(req: IncomingMessage, path: string, url: URL, kit: PortalKit): Promise<Reply> {
  // The answer a switch asks for, in AYA's style: a 500 error page, or JSON of the wrong shape.
  const failure = async (user: string | undefined, call: PortalCall, malformed: unknown) => {
    const f = await kit.failure('aya', user, call);
    if (f === 'http500') return Reply.html(500, '<html><body>Service Unavailable. Error 500.</body></html>');
    if (f === 'malformed') return Reply.json(200, malformed);
    return undefined;
  };
  const cookie = (token: string) => ({ 'set-cookie': `${AYA_COOKIE}=${token}; Path=/aya; HttpOnly` });

  if (path === '/aya/ib/login' && req.method === 'GET') {
    const pre = kit.openSession('aya', '', { csrf: newToken(12), authenticated: false });
    return Reply.html(200, loginPage(pre.csrf ?? '', undefined, url.searchParams.has('timeout')), cookie(pre.token));
  }
  if (path === '/aya/ib/login' && req.method === 'POST') {
    const body = await kit.readBody(req).catch(() => undefined);
    const pre = kit.session('aya', cookieOf(req, AYA_COOKIE));
    // No page session or a stale form: the portal shows its login page again.
    if (!pre || pre.authenticated || !body || body._csrf !== pre.csrf) return Reply.redirect('/aya/ib/login');
    const user = typeof body.username === 'string' ? body.username.trim() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    const early = await failure(user, 'login', { status: 'SUCCESS' });
    if (early) return early.status === 200 ? Reply.html(200, '<html><body>Please wait…') : early;
    const again = (code: string, message: string) => Reply.html(200, loginPage(pre.csrf ?? '', { code, message }));
    if (!user || !password) return again('REQUIRED', 'Please enter username and password');
    const login = kit.ledger.login('aya', user);
    if (login.locked) return again('USER_LOCKED', 'Your user ID has been locked. Please visit your branch.');
    if (password !== login.password) return again('INVALID_CREDENTIALS', 'Invalid username or password');
    kit.endSession(pre.token);
    const session = kit.openSession('aya', login.user);
    return Reply.redirect('/aya/ib/home', cookie(session.token));
  }

  const api = /^\/aya\/ib\/api\/(.+)$/.exec(path);
  if (!api) return failed('NOT_FOUND', 'Not found', 404);
  const session = kit.session('aya', cookieOf(req, AYA_COOKIE));
  if (!session?.authenticated) return Reply.redirect('/aya/ib/login?timeout=1');
  const login = kit.ledger.login('aya', session.user);
  kit.ledger.advance(login);
  const route = api[1];

  if (route === 'accounts' && req.method === 'GET') {
    return (
      (await failure(login.user, 'accounts', { status: 'SUCCESS', data: { accounts: 'n/a' } })) ??
      ok(login.subs.map((s) => accountRow(login, s)))
    );
  }
  if (route === 'balances' && req.method === 'GET') {
    return (
      (await failure(login.user, 'balances', { status: 'SUCCESS', data: [{ acctNo: null }] })) ??
      ok(login.subs.map((s) => ({ acctNo: s.no, availBal: toMajor(s.balance - s.hold), currBal: toMajor(s.balance) })))
    );
  }
  const hist = /^accounts\/([^/]+)\/history$/.exec(route);
  if (hist && req.method === 'GET') {
    const early = await failure(login.user, 'statements', { status: 'SUCCESS', data: { items: [{ amount: 'x' }] } });
    if (early) return early;
    const sub = login.subs.find((s) => s.no === decodeURIComponent(hist[1]));
    if (!sub) return failed('ACCT_NOT_FOUND', 'Account not found', 404);
    if (!sub.usable) return failed('ACCT_FROZEN', sub.reason || 'Account is frozen');
    const from = parseAyaDateTime(url.searchParams.get('from'));
    if (from === undefined) return failed('BAD_REQUEST', 'from must be yyyy-MM-ddTHH:mm:ss', 400);
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
    const size = Math.min(PAGE_SIZE_MAX, Math.max(1, Number(url.searchParams.get('size') ?? 20) || 20));
    const lines = sub.txns.filter((t) => t.at >= from);
    return ok({
      acctNo: sub.no,
      items: lines.slice((page - 1) * size, page * size).map(txnRow),
      page,
      totalPages: Math.max(1, Math.ceil(lines.length / size)),
    });
  }
  return failed('NOT_FOUND', 'Not found', 404);
}
