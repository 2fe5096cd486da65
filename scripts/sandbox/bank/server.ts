// The sandbox banks: a KBZ portal under /kbz and an AYA portal under /aya on one local server,
// over one ledger of logins, sub-accounts, statements and balances, with a control API under
// /__sandbox/bank/ for tests and the demo. Plain node:http; state lives in memory per server
// instance (like the sandbox 4D site), and the ledger also in `stateFile` when given (the local
// stack's DATA_DIR: kept across restarts, ledgerFile.ts). The contract is documented in docs/bank-driver.md.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { ayaPortal } from './ayaPortal';
import { kbzPortal } from './kbzPortal';
import { listenSandbox, sandboxTimers } from '../serveSandbox';
import { type BankLogin, type BankSlug, DEMO_BANK_LOGINS, Ledger, SANDBOX_BANK_PASSWORD, toMajor } from './ledger';
import { ledgerKeeper, loadLedger } from './ledgerFile';
import {
  newBankBehaviourBook,
  newToken,
  type PortalKit,
  type PortalSession,
  parseBankSlug,
  parseBehaviourRule,
  Reply,
} from './portalKit';

export { DEMO_BANK_LOGINS, SANDBOX_BANK_PASSWORD };

export interface SandboxBankOptions {
  /** 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Seed of all generated data (default 13). */
  seed?: number;
  /** Feed slot of each sub-account (a transaction in about half the slots); 0 = no feed (tests). Default 20 s. */
  feedEveryMs?: number;
  /** How long a 'slow' answer takes unless the switch says otherwise (default 8000 ms). */
  slowMs?: number;
  /** Lifetime of a portal session (default 30 min). */
  sessionTtlMs?: number;
  /** Keeps the ledger in this file across restarts (loaded at start, written on every change). */
  stateFile?: string;
}

export interface SandboxBankHandle {
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  /** Portal base URLs: `${url}/kbz` and `${url}/aya`. */
  kbzUrl: string;
  ayaUrl: string;
  stop(): Promise<void>;
}

/** Where each bank's portal lives under a sandbox bank base URL (SANDBOX_BANK_URL). */
export const SANDBOX_PORTAL_PATH: Readonly<Record<BankSlug, string>> = { kbz: '/kbz', aya: '/aya' };

const MAX_BODY = 64 * 1024;
/** A login form is posted within minutes or not at all. */
const PRE_LOGIN_TTL_MS = 5 * 60_000;
const SESSION_SWEEP_AT = 10_000;

export async function startSandboxBank(opts: SandboxBankOptions): Promise<SandboxBankHandle> {
  const host = opts.host ?? '127.0.0.1';
  const slowMs = opts.slowMs ?? 8000;
  const sessionTtlMs = opts.sessionTtlMs ?? 30 * 60_000;
  const ledger = new Ledger({ seed: opts.seed ?? 13, feedEveryMs: opts.feedEveryMs ?? 20_000 });
  if (opts.stateFile) loadLedger(ledger, opts.stateFile);
  const keep = opts.stateFile ? ledgerKeeper(ledger, opts.stateFile) : () => undefined;
  const book = newBankBehaviourBook();
  const sessions = new Map<string, PortalSession>();
  const timers = sandboxTimers();
  const { sleep } = timers;

  function endSessionsOf(bank: BankSlug, user: string): number {
    let ended = 0;
    for (const [token, s] of sessions)
      if (s.bank === bank && s.user.toLowerCase() === user.toLowerCase()) {
        sessions.delete(token);
        ended++;
      }
    return ended;
  }

  async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req) {
      size += (c as Buffer).length;
      if (size > MAX_BODY) throw new Error('Body too large');
      chunks.push(c as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    if (!text) return {};
    if (/application\/x-www-form-urlencoded/i.test(req.headers['content-type'] ?? ''))
      return Object.fromEntries(new URLSearchParams(text));
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('Body must be a JSON object');
    return value as Record<string, unknown>;
  }

  const kit: PortalKit = {
    ledger,
    sessionTtlMs,
    readBody,
    openSession(bank, user, extra = {}) {
      // Login pages opened and never posted leave pre-login sessions behind: swept now and then.
      if (sessions.size >= SESSION_SWEEP_AT) {
        const now = Date.now();
        for (const [token, old] of sessions) if (old.expiresAt < now) sessions.delete(token);
      }
      const s: PortalSession = {
        token: newToken(),
        bank,
        user,
        expiresAt: Date.now() + (extra.authenticated === false ? PRE_LOGIN_TTL_MS : sessionTtlMs),
        authenticated: true,
        ...extra,
      };
      sessions.set(s.token, s);
      return s;
    },
    session(bank, token) {
      const s = token ? sessions.get(token) : undefined;
      if (!s || s.bank !== bank) return undefined;
      if (s.expiresAt < Date.now()) {
        sessions.delete(s.token);
        return undefined;
      }
      return s;
    },
    endSession(token) {
      sessions.delete(token);
    },
    async failure(bank, user, call) {
      const rule = book.take({ bank, user, call });
      if (!rule || rule.failure === 'none') return undefined;
      if (rule.failure === 'slow') {
        await sleep(rule.delayMs ?? slowMs);
        return undefined;
      }
      return rule.failure;
    },
  };

  // ---- control API (no auth: the sandbox only) -------------------------------------------------

  const bad = (msg: string) => Reply.json(400, { error: msg });
  const done = (value: unknown = { ok: true }) => Reply.json(200, value);

  function loginSummary(login: BankLogin) {
    ledger.advance(login);
    return {
      bank: login.bank,
      user: login.user,
      locked: login.locked,
      holder: login.holder,
      subs: login.subs.map((s) => ({
        no: s.no,
        usable: s.usable,
        balance: toMajor(s.balance),
        statements: s.txns.length,
        last: s.txns.slice(-5).map((t) => ({ ...t, amount: toMajor(t.amount) })),
      })),
    };
  }

  async function control(req: IncomingMessage, action: string): Promise<Reply> {
    if (action === 'reset' && req.method === 'POST') {
      ledger.reset();
      book.reset();
      sessions.clear();
      return done();
    }
    if (action === 'behaviour') {
      if (req.method === 'GET') return done({ rules: book.list() });
      if (req.method === 'DELETE') {
        book.reset();
        return done();
      }
    }
    if (req.method !== 'POST' && !(action === 'account' && req.method === 'GET'))
      return Reply.json(405, { error: 'Method not allowed' });
    let body: Record<string, unknown>;
    if (req.method === 'GET') {
      body = Object.fromEntries(new URL(req.url ?? '/', 'http://sandbox').searchParams);
    } else {
      try {
        body = await readBody(req);
      } catch (e) {
        return bad(`Body must be JSON: ${(e as Error).message}`);
      }
    }
    if (action === 'behaviour') {
      const rule = parseBehaviourRule(body);
      if (typeof rule === 'string') return bad(rule);
      book.add(rule);
      return done({ rule });
    }
    const bank = parseBankSlug(body.bank);
    if (!bank) return bad('bank must be kbz (1) or aya (2)');
    if (typeof body.user !== 'string' || !body.user.trim()) return bad('user is required');
    const login = ledger.login(bank, body.user.trim());
    if (action === 'account') return done(loginSummary(login));
    if (action === 'lock') {
      login.locked = body.locked !== false;
      // A bank ends the sessions of a login it locks: the next poll signs in and meets the lock.
      endSessionsOf(bank, login.user);
      return done({ locked: login.locked });
    }
    if (action === 'password') {
      if (typeof body.password !== 'string' || !body.password) return bad('password is required');
      login.password = body.password;
      endSessionsOf(bank, login.user);
      return done();
    }
    if (action === 'expire-session') return done({ ended: endSessionsOf(bank, login.user) });
    const sub = body.no === undefined ? login.subs[0] : login.subs.find((s) => s.no === String(body.no));
    if (!sub) return bad(`no sub-account ${String(body.no)} for ${login.user}`);
    if (action === 'sub-account') {
      if (typeof body.usable !== 'boolean') return bad('usable must be true or false');
      sub.usable = body.usable;
      sub.reason = typeof body.reason === 'string' ? body.reason : '';
      return done({ no: sub.no, usable: sub.usable });
    }
    if (action === 'transaction' || action === 'drop-statement') {
      const amount = Number(body.amount);
      if (!Number.isFinite(amount) || amount <= 0 || Math.round(amount * 100) !== amount * 100)
        return bad('amount must be a positive number with at most 2 decimals');
      const inflow = body.inflow !== false;
      const minor = Math.round(amount * 100);
      if (!inflow && minor > sub.balance) return bad('amount exceeds the balance');
      const t = { amount: minor, inflow };
      if (action === 'drop-statement') {
        ledger.dropTxn(login, sub, t);
        return done({ no: sub.no, balance: toMajor(sub.balance) });
      }
      const txn = ledger.addTxn(login, sub, {
        ...t,
        name: typeof body.name === 'string' ? body.name : undefined,
        remark: typeof body.remark === 'string' ? body.remark : undefined,
      });
      return done({ no: sub.no, ref: txn.ref, at: txn.at, balance: toMajor(sub.balance) });
    }
    return Reply.json(404, { error: `unknown control ${action}` });
  }

  async function route(req: IncomingMessage): Promise<Reply> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const ctl = /^\/__sandbox\/bank\/([a-z-]+)$/.exec(path);
    if (ctl) {
      const reply = await control(req, ctl[1]);
      // A control may have set a login's fields directly.
      if (reply.status === 200) ledger.touch();
      return reply;
    }
    if (path === '/kbz' || path.startsWith('/kbz/')) return kbzPortal(req, path, url, kit);
    if (path === '/aya' || path.startsWith('/aya/')) return ayaPortal(req, path, url, kit);
    if (path === '/')
      return Reply.html(200, '<h1>Sandbox banks</h1><p><a href="/aya/ib/login">AYA</a> · KBZ: /kbz/api/v1</p>');
    return Reply.json(404, { error: 'Not found' });
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    route(req)
      .catch(() => Reply.json(500, { error: 'Internal Server Error' }))
      .then((reply) => {
        // On disk before the answer: what a caller saw survives a kill.
        try {
          keep();
        } catch (error) {
          console.warn('[sandbox bank] could not keep the ledger:', (error as Error).message);
        }
        if (res.destroyed) return;
        res.writeHead(reply.status, { 'cache-control': 'no-store', ...reply.headers });
        res.end(reply.body);
      });
  });
  const { url, stop } = await listenSandbox(server, opts.port, host, timers.clear);
  return { url, kbzUrl: url + SANDBOX_PORTAL_PATH.kbz, ayaUrl: url + SANDBOX_PORTAL_PATH.aya, stop };
}
