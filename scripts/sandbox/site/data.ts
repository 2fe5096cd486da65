// Seeded data of the sandbox 4D agent portal. The same seed, user and mode always give the same
// draws, numbers and agents, so tests and demos can assert on them; only dates follow the clock.

export type ModeSlug = 'd4' | 'tt';

export interface DrawSettingRow {
  draw_id: string;
  name: string;
  status: [boolean, string];
}

export interface BetRow {
  bet_id: string;
  draw_id: string;
  number: string;
  big: number;
  small: number;
  placed_at: number;
}

export interface OutMsgRow {
  Number: string;
  Type: string;
  BigOutLimit: number;
  BigToOut: number;
  SmallOutLimit: number;
  SmallToOut: number;
}

export interface BalanceRow {
  rid: string;
  number: string;
  big: number;
  small: number;
  to_out: number;
}

export type PlatformStatus = [boolean, [boolean, boolean]];
export interface AgentRow {
  agent: string;
  D4: PlatformStatus;
  MG: PlatformStatus;
  TT: PlatformStatus;
}

/** mulberry32: tiny, fast and good enough for believable sample data. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function hashSeed(...parts: (string | number)[]): number {
  let h = 2166136261;
  for (const ch of parts.join('|')) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

const DRAW_NAMES: Record<ModeSlug, string[]> = {
  d4: [
    'Magnum 4D',
    'Da Ma Cai 1+3D',
    'Sports Toto 4D',
    'Singapore 4D',
    'Sabah 88',
    'Sandakan 4D',
    'Cash Sweep',
    'GD Lotto',
  ],
  tt: ['Toto 6/58', 'Toto 6/55', 'Toto 6/50', 'Toto 5D', 'Toto 6D', 'Star Toto', 'Power Toto', 'Supreme Toto'],
};

export function drawSettings(seed: number, mode: ModeSlug): DrawSettingRow[] {
  const rnd = seededRandom(hashSeed(seed, 'draws', mode));
  return DRAW_NAMES[mode].map((name, i) => {
    // Two rows are always inactive so a check sees both kinds.
    const active = i >= 6 ? false : rnd() > 0.15;
    return {
      draw_id: `${mode.toUpperCase()}-${String(101 + i)}`,
      name,
      status: [active, active ? 'Active' : 'Inactive'],
    };
  });
}

/** The draw that bets go to: the first active draw of the mode. */
export function currentDraw(seed: number, mode: ModeSlug): DrawSettingRow {
  return drawSettings(seed, mode).find((d) => d.status[0])!;
}

export function digits(rnd: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String(Math.floor(rnd() * 10));
  return s;
}

export function seededBets(seed: number, user: string, mode: ModeSlug, nextId: () => string): BetRow[] {
  const rnd = seededRandom(hashSeed(seed, 'bets', user, mode));
  const draw = currentDraw(seed, mode);
  return [0, 1].map(() => ({
    bet_id: nextId(),
    draw_id: draw.draw_id,
    number: digits(rnd, 4),
    big: 1 + Math.floor(rnd() * 5),
    small: 1 + Math.floor(rnd() * 5),
    placed_at: Date.now(),
  }));
}

export function outSettingMsgs(seed: number, user: string, mode: ModeSlug, run: number): OutMsgRow[] {
  const rnd = seededRandom(hashSeed(seed, 'out', user, mode, run));
  return [0, 1, 2, 3, 4].map(() => {
    const BigOutLimit = 50 + Math.floor(rnd() * 10) * 10;
    const SmallOutLimit = 30 + Math.floor(rnd() * 10) * 10;
    return {
      Number: digits(rnd, 4),
      Type: mode === 'd4' ? '4D' : 'TT',
      BigOutLimit,
      BigToOut: Math.floor(rnd() * BigOutLimit),
      SmallOutLimit,
      SmallToOut: Math.floor(rnd() * SmallOutLimit),
    };
  });
}

export function balanceStat(seed: number, user: string, mode: ModeSlug): BalanceRow[] {
  const rnd = seededRandom(hashSeed(seed, 'balance', user, mode));
  return [1, 2, 3, 4, 5, 6].map((i) => {
    const big = 10 + Math.floor(rnd() * 90);
    const small = 10 + Math.floor(rnd() * 90);
    return {
      rid: `R${String(i).padStart(3, '0')}`,
      number: digits(rnd, 4),
      big,
      small,
      to_out: Math.floor((big + small) * rnd() * 0.5),
    };
  });
}

export function agents(seed: number, user: string): AgentRow[] {
  const rnd = seededRandom(hashSeed(seed, 'agents', user));
  const platform = (): PlatformStatus => [rnd() > 0.2, [rnd() > 0.3, rnd() > 0.5]];
  return [1, 2, 3, 4, 5, 6, 7].map((i) => ({
    agent: `${user.slice(0, 4).toUpperCase()}-A${String(i).padStart(2, '0')}`,
    D4: platform(),
    MG: platform(),
    TT: platform(),
  }));
}

export function formatDate(ms: number): { date: string; time: string } {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return {
    date: `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`,
    time: `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`,
  };
}
