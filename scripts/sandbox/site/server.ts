// The sandbox 4D agent site: a believable agent portal that Patrol's checker drives in a real
// browser, locally and in demos, with every failure a real site shows available on demand.
// Plain node:http; all state (sessions, bets, switches) lives in memory per server instance.
// The contract (pages, calls, switches) is documented in docs/site-driver.md.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  ACCOUNT_PREFIXES,
  accountFailure,
  newBehaviourBook,
  FAILURES,
  type Failure,
  MODE_OF_SLUG,
  parseRule,
  SANDBOX_PASSWORD,
} from './behaviours';
import {
  agents,
  balanceStat,
  type BetRow,
  currentDraw,
  drawSettings,
  formatDate,
  hashSeed,
  type ModeSlug,
  outSettingMsgs,
  seededBets,
  seededRandom,
} from './data';
import { listenSandbox, sandboxTimers } from '../serveSandbox';
import { APP_JS, loginPage, modePage } from './pages';

export interface SandboxSiteOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Seed of all generated data (default 4). */
  seed?: number;
  /** How long a 'slow' answer takes unless the switch says otherwise (default 8000 ms). */
  slowMs?: number;
  /** Lifetime of a login session (default 2 h). */
  sessionTtlMs?: number;
}

export interface SandboxSiteHandle {
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  stop(): Promise<void>;
}

export { ACCOUNT_PREFIXES, FAILURES, SANDBOX_PASSWORD };

/** Business codes of the sandbox's JSON answers ({code, msg, data?}); 0 is success. */
export const SiteCode = {
  OK: 0,
  WrongPassword: 1001,
  Locked: 1002,
  SessionExpired: 1003,
  BadRequest: 1004,
  DrawClosed: 2001,
  NotFound: 404,
  ServerError: 500,
} as const;

interface Session {
  token: string;
  user: string;
  expiresAt: number;
  /** Authenticated requests left before the session dies (expire* accounts); undefined = no limit. */
  remaining?: number;
}

interface OutBetRow {
  out_id: string;
  number: string;
  big: number;
  small: number;
}

interface AccountModeState {
  bets: BetRow[];
  outBets: OutBetRow[];
  outRuns: number;
}

class HttpReply {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: Record<string, string> = {},
  ) {}
  static json(status: number, value: unknown, headers: Record<string, string> = {}) {
    return new HttpReply(status, JSON.stringify(value), {
      'content-type': 'application/json; charset=utf-8',
      ...headers,
    });
  }
  static ok(data: unknown, msg = 'OK') {
    return HttpReply.json(200, { code: SiteCode.OK, msg, data });
  }
  static fail(status: number, code: number, msg: string) {
    return HttpReply.json(status, { code, msg });
  }
  static html(body: string) {
    return new HttpReply(200, body, { 'content-type': 'text/html; charset=utf-8' });
  }
  static redirect(location: string, headers: Record<string, string> = {}) {
    return new HttpReply(302, '', { location, ...headers });
  }
  withCookie(cookie: string) {
    return new HttpReply(this.status, this.body, { ...this.headers, 'set-cookie': cookie });
  }
}

/** API path (after /api/{mode}/) -> process it belongs to, so switches can target a process. */
const API_PROCESS: Record<string, number> = {
  'GET profile': 1,
  'GET draw': 2,
  'POST bets': 2,
  'GET bets': 3,
  'POST bets/delete': 3,
  'GET draw-settings': 4,
  'POST out-setting3': 5,
  'GET out-bets': 6,
  'POST out-bets/delete': 6,
  'GET out-setting3/status': 7,
  'GET agents': 8,
};

export async function startSandboxSite(opts: SandboxSiteOptions): Promise<SandboxSiteHandle> {
  const host = opts.host ?? '127.0.0.1';
  const seed = opts.seed ?? 4;
  const slowMs = opts.slowMs ?? 8000;
  const sessionTtlMs = opts.sessionTtlMs ?? 2 * 3600_000;
  const sessions = new Map<string, Session>();
  const states = new Map<string, AccountModeState>();
  const book = newBehaviourBook();
  const timers = sandboxTimers();
  const { sleep } = timers;
  let idCounter = 0;
  const nextId = (prefix: string) => `${prefix}${String(100000 + ++idCounter)}`;

  function stateOf(user: string, mode: ModeSlug): AccountModeState {
    const key = `${user}|${mode}`;
    let s = states.get(key);
    if (!s) {
      s = {
        bets: seededBets(seed, user, mode, () => nextId('B')),
        outBets: [{ out_id: nextId('O'), number: '8888', big: 2, small: 1 }],
        outRuns: 0,
      };
      states.set(key, s);
    }
    return s;
  }

  function sessionFrom(req: IncomingMessage): { session?: Session; presented: boolean } {
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const cookie = /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    const token = bearer ?? cookie;
    if (!token) return { presented: false };
    const session = sessions.get(token);
    if (!session || session.expiresAt < Date.now() || session.remaining === 0) {
      if (session) sessions.delete(token);
      return { presented: true };
    }
    if (session.remaining !== undefined) session.remaining -= 1;
    return { session, presented: true };
  }

  /** The failure for one call: per-request header first, then a switch, then the account's own behaviour. */
  function failureFor(
    req: IncomingMessage,
    call: { user?: string; mode?: 1 | 3; process: number },
    accountLevel: boolean,
  ): { failure: Failure; delayMs: number } {
    const header = String(req.headers['x-sandbox-failure'] ?? '');
    const headerDelay = Number(req.headers['x-sandbox-delay-ms'] ?? Number.NaN);
    if (FAILURES.includes(header as Failure))
      return { failure: header as Failure, delayMs: Number.isFinite(headerDelay) ? headerDelay : slowMs };
    const rule = book.take(call);
    if (rule) return { failure: rule.failure, delayMs: rule.delayMs ?? slowMs };
    const own = accountLevel && call.user ? accountFailure(call.user) : 'none';
    return { failure: own, delayMs: slowMs };
  }

  async function readJson(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req) {
      size += (c as Buffer).length;
      if (size > 64 * 1024) throw new Error('Body too large');
      chunks.push(c as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    return text ? JSON.parse(text) : {};
  }

  async function login(req: IncomingMessage): Promise<HttpReply> {
    let body: { username?: unknown; password?: unknown };
    try {
      body = (await readJson(req)) as typeof body;
    } catch {
      return HttpReply.fail(400, SiteCode.BadRequest, 'Invalid request body');
    }
    const user = typeof body.username === 'string' ? body.username.trim() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    if (!user || !password) return HttpReply.fail(400, SiteCode.BadRequest, 'Please enter username and password');
    const { failure, delayMs } = failureFor(req, { user, process: 1 }, false);
    if (failure === 'slow') await sleep(delayMs);
    if (failure === 'http500') return HttpReply.fail(500, SiteCode.ServerError, 'Internal Server Error');
    if (failure === 'badjson') return new HttpReply(200, '{"code":0,"msg":"OK","data":{"token":', jsonHeaders);
    if (failure === 'locked' || accountFailure(user) === 'locked')
      return HttpReply.fail(403, SiteCode.Locked, 'Account is locked, please contact your upline');
    if (failure === 'wrong_password' || password !== SANDBOX_PASSWORD)
      return HttpReply.fail(401, SiteCode.WrongPassword, 'Wrong username or password');
    const token = randomBytes(18).toString('hex');
    const expiresAt = Date.now() + sessionTtlMs;
    // An expire* account's session answers one page, then dies: the check meets it mid-task.
    const remaining = failure === 'expired' || accountFailure(user) === 'expired' ? 1 : undefined;
    sessions.set(token, { token, user, expiresAt, remaining });
    return HttpReply.ok({ token, user, expires_at: expiresAt }, 'Login success').withCookie(
      `sid=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${Math.floor(sessionTtlMs / 1000)}`,
    );
  }

  async function modeApi(req: IncomingMessage, mode: ModeSlug, route: string, session: Session): Promise<HttpReply> {
    const process = API_PROCESS[`${req.method} ${route}`];
    if (!process) return HttpReply.fail(404, SiteCode.NotFound, 'Not found');
    const user = session.user;
    const { failure, delayMs } = failureFor(req, { user, mode: MODE_OF_SLUG[mode], process }, true);
    if (failure === 'slow') await sleep(delayMs);
    if (failure === 'http500') return HttpReply.fail(500, SiteCode.ServerError, 'Internal Server Error');
    if (failure === 'badjson') return new HttpReply(200, `{"code":0,"msg":"OK","data":{"items":[{"id":`, jsonHeaders);
    if (failure === 'expired') {
      sessions.delete(session.token);
      return HttpReply.fail(401, SiteCode.SessionExpired, 'Session expired, please login again');
    }
    const closed = failure === 'closed';
    const state = stateOf(user, mode);
    const rnd = seededRandom(hashSeed(seed, user, mode, route));
    const draw = currentDraw(seed, mode);
    switch (`${req.method} ${route}`) {
      case 'GET profile':
        return HttpReply.ok({
          user,
          mode: mode.toUpperCase(),
          credit: 50_000 + Math.floor(rnd() * 50) * 1000,
          balance: 10_000 + Math.floor(rnd() * 9000),
        });
      case 'GET draw':
        return HttpReply.ok({ draw_id: draw.draw_id, name: draw.name, open: !closed });
      case 'POST bets': {
        let body: { numbers?: unknown; big?: unknown; small?: unknown };
        try {
          body = (await readJson(req)) as typeof body;
        } catch {
          return HttpReply.fail(400, SiteCode.BadRequest, 'Invalid request body');
        }
        if (closed) return HttpReply.fail(409, SiteCode.DrawClosed, `Draw ${draw.draw_id} is closed`);
        const numbers = Array.isArray(body.numbers) ? body.numbers.map(String) : [];
        const big = Number(body.big ?? 0);
        const small = Number(body.small ?? 0);
        const bad = numbers.find((n) => !/^\d{4}$/.test(n));
        if (numbers.length === 0 || bad !== undefined)
          return HttpReply.fail(400, SiteCode.BadRequest, `Invalid bet number ${bad ?? '(none)'}: 4 digits expected`);
        if (!(big >= 0 && small >= 0 && big + small > 0))
          return HttpReply.fail(400, SiteCode.BadRequest, 'Big or small amount required');
        await sleep(40 + Math.floor(rnd() * 60));
        const placed = numbers.map((number) => ({
          bet_id: nextId('B'),
          draw_id: draw.draw_id,
          number,
          big,
          small,
          placed_at: Date.now(),
        }));
        state.bets.push(...placed);
        return HttpReply.ok({ bet_ids: placed.map((b) => b.bet_id), bets: placed }, 'Bet success');
      }
      case 'GET bets':
        return HttpReply.ok(state.bets);
      case 'GET out-bets':
        return HttpReply.ok(state.outBets);
      case 'POST bets/delete':
      case 'POST out-bets/delete': {
        let body: { ids?: unknown };
        try {
          body = (await readJson(req)) as typeof body;
        } catch {
          return HttpReply.fail(400, SiteCode.BadRequest, 'Invalid request body');
        }
        const ids = Array.isArray(body.ids) ? new Set(body.ids.map(String)) : undefined;
        await sleep(30 + Math.floor(rnd() * 40));
        const out = route.startsWith('out');
        const before = out ? state.outBets.length : state.bets.length;
        if (out) state.outBets = state.outBets.filter((b) => ids && !ids.has(b.out_id));
        else state.bets = state.bets.filter((b) => ids && !ids.has(b.bet_id));
        const deleted = before - (out ? state.outBets.length : state.bets.length);
        return HttpReply.ok({ deleted }, `Deleted ${deleted} record(s)`);
      }
      case 'GET draw-settings':
        return HttpReply.ok(drawSettings(seed, mode));
      case 'POST out-setting3': {
        await sleep(80 + Math.floor(rnd() * 120));
        state.outRuns += 1;
        const Msg = outSettingMsgs(seed, user, mode, state.outRuns);
        for (const m of Msg)
          if (m.BigToOut + m.SmallToOut > 0)
            state.outBets.push({ out_id: nextId('O'), number: m.Number, big: m.BigToOut, small: m.SmallToOut });
        const { date, time } = formatDate(Date.now());
        const message = `Out setting 3 executed: ${Msg.length} number(s) processed`;
        return HttpReply.json(200, { code: SiteCode.OK, msg: 'OK', data: { TransactDate: date, time, Msg }, message });
      }
      case 'GET out-setting3/status': {
        const stat = balanceStat(seed, user, mode);
        const big = stat.reduce((s, r) => s + r.big, 0);
        const small = stat.reduce((s, r) => s + r.small, 0);
        const toOut = stat.reduce((s, r) => s + r.to_out, 0);
        const left = 20_000 - (big + small) * 10;
        return HttpReply.ok({
          is_closed: closed,
          fixed_bets: state.bets.length,
          balance_left: left,
          balance_stat: stat,
          balance_total: [big, small, toOut, left],
        });
      }
      case 'GET agents':
        return HttpReply.ok(agents(seed, user));
    }
    return HttpReply.fail(404, SiteCode.NotFound, 'Not found');
  }

  async function admin(req: IncomingMessage, path: string): Promise<HttpReply> {
    if (path === '/__sandbox/behaviour') {
      if (req.method === 'GET') return HttpReply.ok(book.list());
      if (req.method === 'DELETE') {
        book.reset();
        return HttpReply.ok(book.list());
      }
      if (req.method === 'POST') {
        let body: unknown;
        try {
          body = await readJson(req);
        } catch {
          return HttpReply.fail(400, SiteCode.BadRequest, 'Invalid JSON body');
        }
        const rule = parseRule(body);
        if (typeof rule === 'string') return HttpReply.fail(400, SiteCode.BadRequest, rule);
        book.add(rule);
        return HttpReply.ok(book.list());
      }
    }
    if (path === '/__sandbox/reset' && req.method === 'POST') {
      book.reset();
      sessions.clear();
      states.clear();
      return HttpReply.ok(null);
    }
    return HttpReply.fail(404, SiteCode.NotFound, 'Not found');
  }

  async function route(req: IncomingMessage): Promise<HttpReply> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    if (path === '/') return HttpReply.redirect('/login');
    if (path === '/assets/app.js')
      return new HttpReply(200, APP_JS, { 'content-type': 'text/javascript; charset=utf-8' });
    if (path === '/favicon.ico') return new HttpReply(204, '');
    if (path.startsWith('/__sandbox/')) return admin(req, path);
    // An attacker's site: every page of a site saved as <sandbox>/to-metadata redirects to the
    // cloud metadata address, which the checker must refuse to open (SSRF test target).
    if (path === '/to-metadata' || path.startsWith('/to-metadata/'))
      return HttpReply.redirect('http://169.254.169.254/latest/meta-data/iam/security-credentials/');
    if (path === '/login' && req.method === 'GET')
      return HttpReply.html(
        loginPage({ next: url.searchParams.get('next') ?? undefined, expired: url.searchParams.has('expired') }),
      );
    if (path === '/api/login' && req.method === 'POST') return login(req);
    if (path === '/api/logout' && req.method === 'POST') {
      const { session } = sessionFrom(req);
      if (session) sessions.delete(session.token);
      return HttpReply.ok(null).withCookie('sid=; Path=/; Max-Age=0');
    }
    const api = /^\/api\/(d4|tt)\/(.+)$/.exec(path);
    if (api) {
      const { session } = sessionFrom(req);
      if (!session) return HttpReply.fail(401, SiteCode.SessionExpired, 'Session expired, please login again');
      return modeApi(req, api[1] as ModeSlug, api[2], session);
    }
    const page = /^\/(d4|tt)\/(.+)$/.exec(path);
    if (page && req.method === 'GET') {
      const { session, presented } = sessionFrom(req);
      if (!session)
        return HttpReply.redirect(`/login?next=${encodeURIComponent(path)}${presented ? '&expired=1' : ''}`);
      const html = modePage(page[1] as ModeSlug, page[2], session.user);
      if (html) return HttpReply.html(html);
    }
    return HttpReply.fail(404, SiteCode.NotFound, 'Not found');
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    route(req)
      .catch(() => HttpReply.fail(500, SiteCode.ServerError, 'Internal Server Error'))
      .then((reply) => {
        if (res.destroyed) return;
        res.writeHead(reply.status, { 'cache-control': 'no-store', ...reply.headers });
        res.end(reply.body);
      });
  });
  return listenSandbox(server, opts.port, host, timers.clear);
}

const jsonHeaders = { 'content-type': 'application/json; charset=utf-8' };
