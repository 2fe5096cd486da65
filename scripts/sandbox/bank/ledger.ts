// The money behind both sandbox portals: logins, their sub-accounts, a transaction feed and the
// balances it moves. Each portal (kbzPortal.ts, ayaPortal.ts) only shows this ledger in its own
// bank's shapes. Any username signs in with the sandbox password and gets seeded sub-accounts, so
// a bench can use a thousand logins without setting them up; the same seed, bank and user always
// give the same accounts. Amounts are kept in minor units (pyas) so balances never drift.
import { hashSeed, seededRandom } from '../site/data';

export type BankSlug = 'kbz' | 'aya';

/** The password every sandbox login accepts until a control changes it. */
export const SANDBOX_BANK_PASSWORD = 'sandbox123';

/** Logins of the demo (`npm start`): a few sub-accounts each, statements arriving every few seconds. */
export const DEMO_BANK_LOGINS: Readonly<Record<BankSlug, string>> = { kbz: 'kbz.demo', aya: 'aya.demo' };

/** Myanmar time (UTC+06:30, no daylight saving): both banks show their dates in it. */
export const BANK_UTC_OFFSET_MS = 6.5 * 3600_000;

export interface Txn {
  /** The bank's reference (KBZ shows it; AYA does not). */
  ref: string;
  /** Epoch ms. */
  at: number;
  inflow: boolean;
  /** Minor units, positive. */
  amount: number;
  /** Sender (inflow) or receiver (outflow). */
  name: string;
  remark: string;
}

export interface SubAccount {
  no: string;
  /** Minor units. */
  balance: number;
  /** Minor units held (AYA shows it; part of the ledger balance, not of the available one). */
  hold: number;
  usable: boolean;
  reason: string;
  openedOn: string;
  branch: string;
  type: string;
  product: string;
  interestRate: number;
  txns: Txn[];
  /** The feed has produced every transaction up to this time (epoch ms). */
  fedTo: number;
}

export interface BankLogin {
  bank: BankSlug;
  user: string;
  password: string;
  locked: boolean;
  holder: string;
  subs: SubAccount[];
}

const FIRST = ['Aung', 'Kyaw', 'Min', 'Thida', 'Su', 'Hla', 'Zaw', 'Nilar', 'Myo', 'Ei'];
const LAST = ['Htet', 'Win', 'Naing', 'Aye', 'Myint', 'Oo', 'Lwin', 'Thu', 'Zin', 'Mon'];
const BRANCHES = ['Yangon Main', 'Mandalay', 'Naypyitaw', 'Bago', 'Mawlamyine', 'Taunggyi'];
const REMARKS_IN = ['Transfer', 'Salary', 'Deposit', 'Refund', 'Payment received'];
const REMARKS_OUT = ['Withdrawal', 'Bill payment', 'Transfer out', 'Card purchase', 'Fee'];
const KBZ_TYPES: [string, string][] = [
  ['SAVINGS', 'KBZ Special Savings'],
  ['CURRENT', 'KBZ Current Account'],
  ['CALL DEPOSIT', 'KBZ Call Deposit'],
];
const AYA_TYPES: [string, string][] = [
  ['Saving', 'AYA Savings'],
  ['Current', 'AYA Current'],
  ['Special Saving', 'AYA Special Savings'],
];

const HISTORY_TXNS = 4;
const HISTORY_SPAN_MS = 3 * 86_400_000;
/** An idle sandbox catches up at most this far back, so a wake-up after days stays cheap. */
const MAX_CATCH_UP_MS = 3600_000;

const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
const personName = (rnd: () => number) => `${pick(rnd, FIRST)} ${pick(rnd, LAST)}`;

export interface LedgerOptions {
  seed: number;
  /** The feed adds a transaction to a sub-account about every 2×feedEveryMs; 0 turns it off. */
  feedEveryMs: number;
  now?: () => number;
}

/** Everything a ledger holds, as plain data (ledgerFile.ts keeps it across restarts). */
export interface LedgerState {
  logins: BankLogin[];
  refCounter: number;
}

export class Ledger {
  private readonly logins = new Map<string, BankLogin>();
  private refCounter = 0;
  private changes = 0;
  readonly now: () => number;

  constructor(private readonly opts: LedgerOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** Moves on every change of the state (a login made, a transaction, a control's switch). */
  get version(): number {
    return this.changes;
  }

  /** Marks a change made to a login from outside (the control API sets its fields directly). */
  touch(): void {
    this.changes++;
  }

  snapshot(): LedgerState {
    return { logins: [...this.logins.values()], refCounter: this.refCounter };
  }

  restore(state: LedgerState): void {
    this.logins.clear();
    for (const login of state.logins) this.logins.set(this.key(login.bank, login.user), login);
    this.refCounter = state.refCounter;
  }

  private key(bank: BankSlug, user: string) {
    return `${bank}|${user.toLowerCase()}`;
  }

  /** The login (created on first use, with its seeded sub-accounts and a few days of history). */
  login(bank: BankSlug, user: string): BankLogin {
    const key = this.key(bank, user);
    let login = this.logins.get(key);
    if (!login) {
      login = this.create(bank, user);
      this.logins.set(key, login);
      this.changes++;
    }
    return login;
  }

  reset(): void {
    this.logins.clear();
    this.changes++;
  }

  private create(bank: BankSlug, user: string): BankLogin {
    const rnd = seededRandom(hashSeed(this.opts.seed, bank, user.toLowerCase()));
    const holder = personName(rnd).toUpperCase();
    const count = user.toLowerCase() === DEMO_BANK_LOGINS[bank] ? 3 : 2 + Math.floor(rnd() * 3);
    const now = this.now();
    const types = bank === 'kbz' ? KBZ_TYPES : AYA_TYPES;
    const subs: SubAccount[] = [];
    for (let i = 0; i < count; i++) {
      const [type, product] = types[i % types.length];
      const digits = String(Math.floor(rnd() * 1e10)).padStart(10, '0');
      const opened = new Date(
        Date.UTC(2012 + Math.floor(rnd() * 12), Math.floor(rnd() * 12), 1 + Math.floor(rnd() * 28)),
      );
      const sub: SubAccount = {
        // KBZ numbers are 17 digits, AYA's 13: each looks like its bank's.
        no: bank === 'kbz' ? `${String(1 + i).padStart(3, '0')}3010${digits}` : `0${i + 1}${digits.slice(0, 11)}`,
        balance: Math.round(200_000 + rnd() * 9_800_000) * 100,
        hold: bank === 'aya' && i === 0 ? 10_000 * 100 : 0,
        usable: true,
        reason: '',
        openedOn: opened.toISOString().slice(0, 10),
        branch: pick(rnd, BRANCHES),
        type,
        product,
        interestRate: type.toLowerCase().includes('current') ? 0 : Math.round((2 + rnd() * 6) * 4) / 4,
        txns: [],
        fedTo: now,
      };
      for (let h = HISTORY_TXNS; h >= 1; h--) {
        const at = now - Math.floor((h / (HISTORY_TXNS + 1)) * HISTORY_SPAN_MS) - Math.floor(rnd() * 3600_000);
        this.apply(sub, this.randomTxn(rnd, sub, at));
      }
      subs.push(sub);
    }
    return {
      bank,
      user,
      password: SANDBOX_BANK_PASSWORD,
      locked: user.toLowerCase().startsWith('locked'),
      holder,
      subs,
    };
  }

  private randomTxn(rnd: () => number, sub: SubAccount, at: number): Omit<Txn, 'ref'> {
    const amount = (1 + Math.floor(rnd() * 200)) * 500 * 100; // 500 .. 100,000 kyats, round figures
    const inflow = rnd() < 0.65 || sub.balance < amount;
    return {
      at,
      inflow,
      amount,
      name: personName(rnd).toUpperCase(),
      remark: pick(rnd, inflow ? REMARKS_IN : REMARKS_OUT),
    };
  }

  private apply(sub: SubAccount, txn: Omit<Txn, 'ref'>): Txn {
    const full: Txn = { ...txn, ref: `${String(txn.at).slice(-9)}${String(++this.refCounter).padStart(5, '0')}` };
    this.changes++;
    sub.balance += txn.inflow ? txn.amount : -txn.amount;
    // Kept in time order: a portal filters and pages by time.
    let i = sub.txns.length;
    while (i > 0 && sub.txns[i - 1].at > full.at) i--;
    sub.txns.splice(i, 0, full);
    return full;
  }

  /**
   * Runs the feed of one login up to now: each sub-account has a slot every feedEveryMs, and a
   * seeded half of the slots carry a transaction. Lazy (run when a portal or control reads), so an
   * idle sandbox costs nothing and a thousand bench logins need no timers.
   */
  advance(login: BankLogin): void {
    const every = this.opts.feedEveryMs;
    const now = this.now();
    for (const sub of login.subs) {
      if (every > 0 && sub.usable) {
        const from = Math.max(sub.fedTo, now - MAX_CATCH_UP_MS);
        for (let slot = Math.floor(from / every); slot <= Math.floor(now / every); slot++) {
          const rnd = seededRandom(hashSeed(this.opts.seed, login.bank, login.user.toLowerCase(), sub.no, slot));
          if (rnd() >= 0.5) continue;
          const at = slot * every + Math.floor(rnd() * every);
          if (at <= from || at > now) continue;
          this.apply(sub, this.randomTxn(rnd, sub, at));
        }
      }
      sub.fedTo = Math.max(sub.fedTo, now);
    }
  }

  sub(login: BankLogin, no?: string): SubAccount | undefined {
    return no === undefined ? login.subs[0] : login.subs.find((s) => s.no === no);
  }

  /** Control: a transaction now (it shows in the statements and moves the balance). */
  addTxn(login: BankLogin, sub: SubAccount, t: { amount: number; inflow: boolean; name?: string; remark?: string }) {
    this.advance(login);
    return this.apply(sub, {
      at: this.now(),
      inflow: t.inflow,
      amount: t.amount,
      name: (t.name ?? (t.inflow ? 'SANDBOX SENDER' : 'SANDBOX RECEIVER')).toUpperCase(),
      remark: t.remark ?? (t.inflow ? 'Transfer' : 'Withdrawal'),
    });
  }

  /** Control: the balance moves and no statement shows it (a bank that lost a line). */
  dropTxn(login: BankLogin, sub: SubAccount, t: { amount: number; inflow: boolean }): void {
    this.advance(login);
    sub.balance += t.inflow ? t.amount : -t.amount;
    this.changes++;
  }
}

/** Local (Myanmar) calendar parts of an instant. */
export function bankLocalParts(ms: number) {
  const d = new Date(ms + BANK_UTC_OFFSET_MS);
  const p = (n: number) => String(n).padStart(2, '0');
  return {
    yyyy: String(d.getUTCFullYear()),
    mm: p(d.getUTCMonth() + 1),
    dd: p(d.getUTCDate()),
    time: `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`,
  };
}

/** Start of a local (Myanmar) day given as YYYY-MM-DD, in epoch ms. */
export function bankLocalDayStart(yyyy: number, mm: number, dd: number): number {
  return Date.UTC(yyyy, mm - 1, dd) - BANK_UTC_OFFSET_MS;
}

/** Minor units -> major units as a number with two decimals. */
export const toMajor = (minor: number) => Math.round(minor) / 100;
