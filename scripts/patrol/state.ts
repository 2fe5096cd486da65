// The stack as a file: every section read through the public API, ids replaced by keys. Export
// writes it; apply diffs the file against it and keeps the ids to address its changes.
import { createHash } from 'node:crypto';
import { Bank, BankAccountStatus, Process, TestMode } from '../../shared/enums.js';
import {
  type AlertRuleEntry,
  type AutoCheckRuleEntry,
  type BankAccountEntry,
  envRef,
  type MaintenanceEntry,
  PATROL_FILE_VERSION,
  type PatrolFile,
  type SiteEntry,
} from '../../shared/schemas/patrolFile.js';
import { ApiError, type PatrolApi } from './client.js';
import { type AnyEntry, clockOf, type Kind, keyOf, normalize } from './model.js';

interface SiteRow {
  id: number;
  name: string;
  url: string;
  enable: boolean;
}
interface AccountRow {
  id: number;
  site_id: number;
  user: string;
  enable: boolean;
}
interface RuleRow {
  id: number;
  name: string;
  sites: number[];
  checkpoints: { points: { process: number; modes: number[] }[] };
  times: { day: number; times: string[] }[];
  enable: boolean;
}
interface WindowRow {
  id: number;
  name: string;
  sites: number[] | 'all';
  mode: 'pause' | 'silent';
  kind: 'once' | 'weekly';
  start_at: number | null;
  end_at: number | null;
  days: number[] | null;
  start_time: string | null;
  end_time: string | null;
  enabled: boolean;
}
interface BankRow {
  id: number;
  bank_name: number;
  user: string;
  status: number;
  monitor_interval: number;
  monitor_range: [number, number][];
  holder: string;
  mobile: string;
  remark: string;
  webhook: string | null;
}
/** A1's alert rule (issue 45): `bank` as the Bank enum's value, accounts by id. */
interface AlertRow {
  id: number;
  name: string;
  expression: string;
  scope: { kind: 'all' | 'bank' | 'accounts'; bank?: number | string; account_ids?: number[] };
  severity: 'info' | 'warning' | 'critical';
  chat_id?: string | null;
  enabled: boolean;
}

export interface StackState {
  /** The stack as the file would say it (normal form, sorted by key). */
  file: PatrolFile;
  /** Each entry's id, by kind and key. */
  ids: Map<Kind, Map<string, number>>;
  /**
   * Entries the file cannot hold as they are, left out of `file`: a one-off window that has ended
   * (history, not configuration), a rule, window or alert rule whose every site or account was
   * deleted (the schema wants one). An apply still matches them by key and never prunes them.
   */
  hidden: PatrolFile;
  /** What the export could not write as it is (said on stderr). */
  warnings: string[];
}

const nameOf = (values: Readonly<Record<string, number>>, value: number | string): string =>
  typeof value === 'string' ? value : (Object.entries(values).find(([, v]) => v === value)?.[0] ?? String(value));

/** An environment variable's name for a key: its letters and digits upper-cased, a digest of the key where they lose it. */
function variableName(prefix: string, key: string, taken: Set<string>): string {
  const slug = key
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  let name = slug ? `${prefix}_${slug}` : `${prefix}_${digest(key)}`;
  // Two keys alike once upper-cased and stripped ("Shop A/x", "shop-a/x") get the digest too.
  if (taken.has(name)) name = `${name}_${digest(key)}`;
  taken.add(name);
  return name;
}
const digest = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 8).toUpperCase();

/** A one-off window that has ended is history, not configuration: no export writes it, no prune deletes it. */
const ended = (w: WindowRow, now: number) => w.kind === 'once' && (w.end_at ?? 0) <= now;

/** Alert rules are issue 45's: a stack without them answers 404, and the section is left out. */
async function alertRules(api: PatrolApi): Promise<AlertRow[] | undefined> {
  try {
    return await api.listAll<AlertRow>('/bank/alert-rules');
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

export async function readStack(api: PatrolApi, now = Date.now()): Promise<StackState> {
  const [sites, accounts, rules, windows, banks, alerts] = await Promise.all([
    api.listAll<SiteRow>('/sites'),
    api.listAll<AccountRow>('/sites/accounts'),
    api.listAll<RuleRow>('/auto-check/rules'),
    api.listAll<WindowRow>('/maintenance'),
    api.listAll<BankRow>('/bank/bank-accounts'),
    alertRules(api),
  ]);
  const warnings: string[] = [];
  const ids = new Map<Kind, Map<string, number>>();
  const remember = (kind: Kind, entry: AnyEntry, id: number) => {
    const map = ids.get(kind) ?? new Map<string, number>();
    const key = keyOf(kind, entry);
    if (map.has(key))
      warnings.push(
        `${kind} "${key}" is on the stack twice (ids ${map.get(key)} and ${id}): rename one, the file keys them by name`,
      );
    map.set(key, id);
    ids.set(kind, map);
  };
  const taken = new Set<string>();

  const siteName = new Map(sites.map((s) => [s.id, s.name]));
  const namesOf = (siteIds: number[], what: string): string[] =>
    siteIds.flatMap((id) => {
      const name = siteName.get(id);
      if (name === undefined) warnings.push(`${what}: site ${id} was deleted, left out`);
      return name === undefined ? [] : [name];
    });

  const accountsOf = new Map<number, AccountRow[]>();
  for (const a of accounts) accountsOf.set(a.site_id, [...(accountsOf.get(a.site_id) ?? []), a]);
  const siteEntries: SiteEntry[] = sites.map((s) => {
    const entry: SiteEntry = {
      name: s.name,
      url: s.url,
      enable: s.enable,
      accounts: (accountsOf.get(s.id) ?? [])
        .map((a) => {
          const key = `${s.name}/${a.user}`;
          remember('site account', { site: s.name, user: a.user, pwd: '' }, a.id);
          return { user: a.user, pwd: envRef(variableName('PATROL_SITE', key, taken)), enable: a.enable };
        })
        .sort((x, y) => x.user.localeCompare(y.user)),
    };
    remember('site', entry, s.id);
    return entry;
  });

  const hidden = {
    auto_check_rules: [] as AutoCheckRuleEntry[],
    maintenance_windows: [] as MaintenanceEntry[],
    alert_rules: [] as AlertRuleEntry[],
  };
  const orphan = (kind: Kind, key: string, what: string) =>
    warnings.push(`${kind} "${key}" left out: every ${what} it named was deleted`);

  const ruleEntries: AutoCheckRuleEntry[] = [];
  for (const r of rules) {
    const entry = normalize('auto-check rule', {
      name: r.name,
      sites: namesOf(r.sites, `auto-check rule "${r.name}"`),
      points: r.checkpoints.points
        .filter((p) => p.modes.length)
        .map((p) => ({
          process: nameOf(Process.values, p.process) as AutoCheckRuleEntry['points'][number]['process'],
          modes: p.modes.map((m) => nameOf(TestMode.values, m) as 'D4'),
        })),
      times: r.times,
      enable: r.enable,
    });
    remember('auto-check rule', entry, r.id);
    if (entry.sites.length) ruleEntries.push(entry);
    else {
      orphan('auto-check rule', r.name, 'site');
      hidden.auto_check_rules.push(entry);
    }
  }

  const windowEntries: MaintenanceEntry[] = [];
  for (const w of windows) {
    const common = {
      name: w.name,
      sites: w.sites === 'all' ? ('all' as const) : namesOf(w.sites, `maintenance window "${w.name}"`),
      mode: w.mode,
      enabled: w.enabled,
    };
    const entry = normalize(
      'maintenance window',
      w.kind === 'once'
        ? {
            ...common,
            kind: 'once',
            start_at: new Date(w.start_at ?? 0).toISOString(),
            end_at: new Date(w.end_at ?? 0).toISOString(),
          }
        : {
            ...common,
            kind: 'weekly',
            days: w.days ?? [],
            start_time: w.start_time ?? '',
            end_time: w.end_time ?? '',
          },
    );
    // Matched by the apply even when ended (so the file's own ended window is not made again).
    remember('maintenance window', entry, w.id);
    const siteless = entry.sites !== 'all' && entry.sites.length === 0;
    if (siteless) orphan('maintenance window', w.name, 'site');
    (ended(w, now) || siteless ? hidden.maintenance_windows : windowEntries).push(entry);
  }

  const bankKey = new Map<number, string>();
  const bankEntries: BankAccountEntry[] = banks.map((b) => {
    const bank = nameOf(Bank.values, b.bank_name) as BankAccountEntry['bank'];
    const key = `${bank}/${b.user}`;
    bankKey.set(b.id, key);
    const masked = typeof b.webhook === 'string' && b.webhook.includes('***');
    if (masked)
      warnings.push(`bank account "${key}": webhook left out (masked for this token; export with an operate token)`);
    const entry = normalize('bank account', {
      bank,
      user: b.user,
      pwd: envRef(variableName('PATROL_BANK', key, taken)),
      enabled: b.status !== BankAccountStatus.values.Disable,
      interval: b.monitor_interval,
      range: b.monitor_range.map(([from, to]) => [clockOf(from), clockOf(to)] as [string, string]),
      holder: b.holder ?? '',
      mobile: b.mobile ?? '',
      remark: b.remark ?? '',
      ...(masked ? {} : { webhook: b.webhook ?? null }),
    });
    remember('bank account', entry, b.id);
    return entry;
  });

  const alertEntries = alerts?.flatMap((a): AlertRuleEntry[] => {
    const scope: AlertRuleEntry['scope'] =
      a.scope.kind === 'bank'
        ? { kind: 'bank', bank: nameOf(Bank.values, a.scope.bank ?? '') as 'KBZ' }
        : a.scope.kind === 'accounts'
          ? {
              kind: 'accounts',
              accounts: (a.scope.account_ids ?? []).flatMap((id) => {
                const key = bankKey.get(id);
                if (!key) warnings.push(`alert rule "${a.name}": bank account ${id} is gone, left out`);
                return key ? [key] : [];
              }),
            }
          : { kind: 'all' };
    const entry = normalize('alert rule', {
      name: a.name,
      expression: a.expression,
      scope,
      severity: a.severity,
      chat_id: a.chat_id ?? null,
      enabled: a.enabled,
    });
    remember('alert rule', entry, a.id);
    if (entry.scope.kind !== 'accounts' || entry.scope.accounts.length) return [entry];
    orphan('alert rule', a.name, 'bank account');
    hidden.alert_rules.push(entry);
    return [];
  });

  const byKey =
    <K extends Kind>(kind: K) =>
    (a: AnyEntry, b: AnyEntry) =>
      keyOf(kind, a).localeCompare(keyOf(kind, b));
  const file: PatrolFile = {
    version: PATROL_FILE_VERSION,
    sites: siteEntries.sort(byKey('site')),
    auto_check_rules: ruleEntries.sort(byKey('auto-check rule')),
    maintenance_windows: windowEntries.sort(byKey('maintenance window')),
    bank_accounts: bankEntries.sort(byKey('bank account')),
    ...(alertEntries ? { alert_rules: alertEntries.sort(byKey('alert rule')) } : {}),
  };
  return { file, hidden: { version: PATROL_FILE_VERSION, ...hidden }, ids, warnings };
}
