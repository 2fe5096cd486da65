// What the file's entries are, kind by kind: their key, their normal form (so equal settings compare
// equal however they were written: times and days sorted, ISO instants rewritten, ranges as HH:mm)
// and which fields an apply compares. Both sides of a diff go through `normalize`: the entries read
// from the stack (state.ts) and the file's.
import type {
  AlertRuleEntry,
  AutoCheckRuleEntry,
  BankAccountEntry,
  MaintenanceEntry,
  PatrolFile,
  SiteAccountEntry,
  SiteEntry,
} from '../../shared/schemas/patrolFile.js';
import { Process, TestMode } from '../../shared/enums.js';

/** The kinds in the order an apply creates and updates them (references point backwards); deletes go the other way. */
export const KINDS = [
  'site',
  'site account',
  'bank account',
  'auto-check rule',
  'maintenance window',
  'alert rule',
] as const;
export type Kind = (typeof KINDS)[number];

/** A site account with its site's name: the file nests it in its site. */
export type AccountEntry = SiteAccountEntry & { site: string };

export interface EntryOf {
  site: Omit<SiteEntry, 'accounts'>;
  'site account': AccountEntry;
  'bank account': BankAccountEntry;
  'auto-check rule': AutoCheckRuleEntry;
  'maintenance window': MaintenanceEntry;
  'alert rule': AlertRuleEntry;
}
export type AnyEntry = EntryOf[Kind];

/** Fields that say which entry it is (its key), and the password no diff can see (the API never shows it). */
const NOT_COMPARED: Record<Kind, readonly string[]> = {
  site: ['name'],
  'site account': ['site', 'user', 'pwd'],
  'bank account': ['bank', 'user', 'pwd'],
  'auto-check rule': ['name'],
  'maintenance window': ['name'],
  'alert rule': ['name'],
};

export function keyOf(kind: Kind, entry: AnyEntry): string {
  switch (kind) {
    case 'site account': {
      const a = entry as AccountEntry;
      return `${a.site}/${a.user}`;
    }
    case 'bank account': {
      const b = entry as BankAccountEntry;
      return `${b.bank}/${b.user}`;
    }
    default:
      return (entry as { name: string }).name;
  }
}

/** Kinds whose entries the API can delete; the others (accounts) are disabled by --prune instead. */
export const DELETABLE: Record<Kind, boolean> = {
  site: true,
  'site account': false,
  'bank account': false,
  'auto-check rule': true,
  'maintenance window': true,
  'alert rule': true,
};

/** Whether an entry is switched off (what --prune leaves a kind the API cannot delete). */
export function isDisabled(kind: Kind, entry: AnyEntry): boolean {
  if (kind === 'site account') return (entry as AccountEntry).enable === false;
  if (kind === 'bank account') return (entry as BankAccountEntry).enabled === false;
  return false;
}

const byValue =
  (values: Readonly<Record<string, number>>) =>
  (a: string, b: string): number =>
    (values[a] ?? 0) - (values[b] ?? 0);
const sortedUnique = <T>(items: readonly T[], compare?: (a: T, b: T) => number): T[] =>
  [...new Set(items)].sort(compare);
const numeric = (a: number, b: number) => a - b;

/** Seconds of the day as HH:mm (HH:mm:ss when it has seconds); 86400 is 24:00. */
export function clockOf(seconds: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const s = seconds % 60;
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}${s ? `:${pad(s)}` : ''}`;
}
export function secondsOf(clock: string): number {
  const [h, m, s] = clock.split(':').map(Number);
  return h * 3600 + m * 60 + (s ?? 0);
}

/** The entry in its normal form, fields left out kept out (a field the file leaves out is not managed). */
export function normalize<K extends Kind>(kind: K, entry: EntryOf[K]): EntryOf[K] {
  switch (kind) {
    case 'auto-check rule': {
      const r = entry as AutoCheckRuleEntry;
      const points = new Map<string, string[]>();
      for (const p of r.points) points.set(p.process, [...(points.get(p.process) ?? []), ...p.modes]);
      const days = new Map<number, string[]>();
      for (const d of r.times) days.set(d.day, [...(days.get(d.day) ?? []), ...d.times]);
      return {
        ...r,
        sites: sortedUnique(r.sites),
        points: [...points]
          .sort(([a], [b]) => byValue(Process.values)(a, b))
          .map(([process, modes]) => ({ process, modes: sortedUnique(modes, byValue(TestMode.values)) })),
        times: [...days]
          .filter(([, times]) => times.length)
          .sort(([a], [b]) => a - b)
          .map(([day, times]) => ({ day, times: sortedUnique(times) })),
      } as EntryOf[K];
    }
    case 'maintenance window': {
      const w = entry as MaintenanceEntry;
      const sites = w.sites === 'all' ? 'all' : sortedUnique(w.sites);
      if (w.kind === 'once')
        return {
          ...w,
          sites,
          start_at: new Date(w.start_at).toISOString(),
          end_at: new Date(w.end_at).toISOString(),
        } as EntryOf[K];
      return { ...w, sites, days: sortedUnique(w.days, numeric) } as EntryOf[K];
    }
    case 'bank account': {
      const b = entry as BankAccountEntry;
      if (!b.range) return b as EntryOf[K];
      return {
        ...b,
        range: b.range
          .map(([from, to]) => [secondsOf(from), secondsOf(to)] as const)
          .sort((x, y) => x[0] - y[0])
          .map(([from, to]) => [clockOf(from), clockOf(to)]),
      } as EntryOf[K];
    }
    case 'alert rule': {
      const a = entry as AlertRuleEntry;
      return (a.scope.kind === 'accounts'
        ? { ...a, scope: { ...a.scope, accounts: sortedUnique(a.scope.accounts) } }
        : a) as unknown as EntryOf[K];
    }
    default:
      return entry;
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields of `desired` that differ from `current` (both normal), in the entry's order. Fields the
 * desired entry leaves out are not compared; `null` and a field absent from the stack's entry are alike.
 */
export function changedFields<K extends Kind>(kind: K, desired: EntryOf[K], current: EntryOf[K]): string[] {
  const skip = NOT_COMPARED[kind];
  const cur = current as Record<string, unknown>;
  return Object.entries(desired as Record<string, unknown>)
    .filter(([field, value]) => !skip.includes(field) && value !== undefined && !same(value, cur[field] ?? null))
    .map(([field]) => field);
}

/** Every entry of the file by kind and key (site accounts out of their sites), normal; sections left out are absent. */
export function entriesOf(file: PatrolFile): Map<Kind, Map<string, AnyEntry>> {
  const out = new Map<Kind, Map<string, AnyEntry>>();
  const add = <K extends Kind>(kind: K, entries: readonly EntryOf[K][] | undefined) => {
    if (!entries) return;
    const map = out.get(kind) ?? new Map<string, AnyEntry>();
    for (const e of entries) map.set(keyOf(kind, e), normalize(kind, e));
    out.set(kind, map);
  };
  if (file.sites) {
    add(
      'site',
      file.sites.map(({ accounts: _, ...site }) => site),
    );
    // Accounts are managed for the sites that list them (a site without `accounts` leaves its own alone).
    out.set('site account', new Map());
    add(
      'site account',
      file.sites.flatMap((s) => (s.accounts ?? []).map((a) => ({ site: s.name, ...a }))),
    );
  }
  add('bank account', file.bank_accounts);
  add('auto-check rule', file.auto_check_rules);
  add('maintenance window', file.maintenance_windows);
  add('alert rule', file.alert_rules);
  return out;
}

/** The sites whose `accounts` the file lists: only their accounts are pruned. */
export function sitesListingAccounts(file: PatrolFile): Set<string> {
  return new Set((file.sites ?? []).filter((s) => s.accounts !== undefined).map((s) => s.name));
}

/** Keys a section holds twice (the file's own mistake, refused before anything is read). */
export function duplicateKeys(file: PatrolFile): string[] {
  const problems: string[] = [];
  const check = (kind: Kind, keys: string[]) => {
    const seen = new Set<string>();
    for (const k of keys) {
      if (seen.has(k)) problems.push(`${kind} "${k}" is in the file twice`);
      seen.add(k);
    }
  };
  check(
    'site',
    (file.sites ?? []).map((s) => s.name),
  );
  for (const s of file.sites ?? [])
    check(
      'site account',
      (s.accounts ?? []).map((a) => `${s.name}/${a.user}`),
    );
  check(
    'bank account',
    (file.bank_accounts ?? []).map((b) => `${b.bank}/${b.user}`),
  );
  check(
    'auto-check rule',
    (file.auto_check_rules ?? []).map((r) => r.name),
  );
  check(
    'maintenance window',
    (file.maintenance_windows ?? []).map((w) => w.name),
  );
  check(
    'alert rule',
    (file.alert_rules ?? []).map((a) => a.name),
  );
  return problems;
}
