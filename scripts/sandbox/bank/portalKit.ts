// What both sandbox portals share: replies, bodies, sessions and the failure switches. Each portal
// decides how a failure looks in its own bank's style (see kbzPortal.ts, ayaPortal.ts).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type CountedRule, countedRuleError, RuleBook } from '../ruleBook';
import type { BankSlug, Ledger } from './ledger';

export class Reply {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: Record<string, string> = {},
  ) {}
  static json(status: number, value: unknown, headers: Record<string, string> = {}) {
    return new Reply(status, JSON.stringify(value), { 'content-type': 'application/json; charset=utf-8', ...headers });
  }
  static html(status: number, body: string, headers: Record<string, string> = {}) {
    return new Reply(status, body, { 'content-type': 'text/html; charset=utf-8', ...headers });
  }
  static redirect(location: string, headers: Record<string, string> = {}) {
    return new Reply(302, '', { location, ...headers });
  }
}

/** The portal calls a switch can target. */
export const PORTAL_CALLS = ['login', 'accounts', 'statements', 'balances'] as const;
export type PortalCall = (typeof PORTAL_CALLS)[number];

export const BANK_FAILURES = ['none', 'slow', 'http500', 'malformed'] as const;
export type BankFailure = (typeof BANK_FAILURES)[number];

/** A switch; its `delayMs` is a 'slow' answer's delay (default: the sandbox's slowMs). */
export interface BankBehaviourRule extends CountedRule {
  failure: BankFailure;
  /** Limit the rule to one bank, login or call; absent = any. */
  bank?: BankSlug;
  user?: string;
  call?: PortalCall;
}

export interface PortalSession {
  token: string;
  bank: BankSlug;
  user: string;
  expiresAt: number;
  /** AYA: a pre-login session carries the form's CSRF token and no user yet. */
  csrf?: string;
  authenticated: boolean;
}

export interface PortalKit {
  ledger: Ledger;
  sessionTtlMs: number;
  openSession(bank: BankSlug, user: string, extra?: Partial<PortalSession>): PortalSession;
  /** The live session of a token, else undefined (unknown, expired or ended by a control). */
  session(bank: BankSlug, token: string | undefined): PortalSession | undefined;
  endSession(token: string): void;
  /** Applies a 'slow' switch (waits) and returns the failure the portal must show, if any. */
  failure(bank: BankSlug, user: string | undefined, call: PortalCall): Promise<'http500' | 'malformed' | undefined>;
  readBody(req: IncomingMessage): Promise<Record<string, unknown>>;
}

export function newToken(bytes = 18): string {
  return randomBytes(bytes).toString('base64url');
}

export function cookieOf(req: IncomingMessage, name: string): string | undefined {
  const m = new RegExp(`(?:^|;\\s*)${name}=([^;]+)`).exec(req.headers.cookie ?? '');
  return m?.[1];
}

export function parseBankSlug(value: unknown): BankSlug | undefined {
  if (value === 1 || value === '1' || value === 'kbz' || value === 'KBZ') return 'kbz';
  if (value === 2 || value === '2' || value === 'aya' || value === 'AYA') return 'aya';
  return undefined;
}

export function parseBehaviourRule(body: Record<string, unknown>): BankBehaviourRule | string {
  if (!BANK_FAILURES.includes(body.failure as BankFailure)) return `failure must be one of ${BANK_FAILURES.join(', ')}`;
  const bank = body.bank === undefined ? undefined : parseBankSlug(body.bank);
  if (body.bank !== undefined && !bank) return 'bank must be kbz (1) or aya (2)';
  if (body.user !== undefined && typeof body.user !== 'string') return 'user must be a string';
  if (body.call !== undefined && !PORTAL_CALLS.includes(body.call as PortalCall))
    return `call must be one of ${PORTAL_CALLS.join(', ')}`;
  const counted = countedRuleError(body);
  if (counted) return counted;
  return {
    failure: body.failure as BankFailure,
    bank,
    user: body.user as string | undefined,
    call: body.call as PortalCall | undefined,
    delayMs: body.delayMs as number | undefined,
    times: body.times as number | undefined,
  };
}

/** The bank sandbox's switches: a rule limited to a bank, a login (any case) or a portal call matches only those. */
export const newBankBehaviourBook = () =>
  new RuleBook<BankBehaviourRule, { bank: BankSlug; user?: string; call: PortalCall }>(
    (r, call) =>
      (r.bank === undefined || r.bank === call.bank) &&
      (r.user === undefined || r.user.toLowerCase() === call.user?.toLowerCase()) &&
      (r.call === undefined || r.call === call.call),
  );

/** Minor units as KBZ prints money: "1,234,567.00". */
export function kbzMoney(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(Math.round(minor));
  const major = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}${major}.${String(abs % 100).padStart(2, '0')}`;
}
