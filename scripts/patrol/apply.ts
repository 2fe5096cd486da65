// Carries out a plan (plan.ts) through the public API, change by change, in the plan's order. A
// change the API refuses is reported with its entry's key and the API's message, and the others go
// on (one whose reference failed fails too, naming it); the caller exits non-zero when any failed.
import { Bank, BankAccountStatus, Process, TestMode } from '../../shared/enums.js';
import {
  type AlertRuleEntry,
  type AutoCheckRuleEntry,
  type BankAccountEntry,
  envRefName,
  type MaintenanceEntry,
  type SiteEntry,
} from '../../shared/schemas/patrolFile.js';
import { ApiError, type PatrolApi } from './client.js';
import { type AccountEntry, type Kind, secondsOf } from './model.js';
import { type Change, describeChange } from './plan.js';

export interface ApplyContext {
  api: PatrolApi;
  /** Ids of the stack's entries by kind and key; creates add theirs. */
  ids: Map<Kind, Map<string, number>>;
  env: Readonly<Record<string, string | undefined>>;
  log(line: string): void;
  error(line: string): void;
}

/** The variables the plan needs: each password it writes (creates, and updates of `pwd`). */
export function neededVariables(changes: readonly Change[]): string[] {
  const names = new Set<string>();
  for (const c of changes) {
    if (c.kind !== 'site account' && c.kind !== 'bank account') continue;
    if (c.action === 'create' || (c.action === 'update' && c.fields.includes('pwd'))) {
      const name = envRefName((c.entry as { pwd: string }).pwd);
      if (name) names.add(name);
    }
  }
  return [...names];
}

class Unresolved extends Error {}

export async function applyChanges(changes: readonly Change[], ctx: ApplyContext): Promise<{ failed: Change[] }> {
  const idOf = (kind: Kind, key: string): number => {
    const id = ctx.ids.get(kind)?.get(key);
    if (id === undefined) throw new Unresolved(`${kind} "${key}" is not on the stack (its own change failed?)`);
    return id;
  };
  const remember = (kind: Kind, key: string, id: number) => {
    const map = ctx.ids.get(kind) ?? new Map<string, number>();
    map.set(key, id);
    ctx.ids.set(kind, map);
  };
  const password = (ref: string) => {
    const name = envRefName(ref) ?? '';
    const value = ctx.env[name];
    // Checked before any change (main.ts); said again should the environment change meanwhile.
    if (!value) throw new Unresolved(`environment variable ${name} is not set`);
    return value;
  };
  const siteIds = (names: string[] | 'all') => (names === 'all' ? 'all' : names.map((n) => idOf('site', n)));
  const api = ctx.api;

  const run: { [K in Kind]: (c: Change) => Promise<void> } = {
    async site(c) {
      const site = c.entry as SiteEntry;
      if (c.action === 'create') {
        const made = await api.send<{ id: number }>('POST', '/sites', { name: site.name, url: site.url, accounts: [] });
        remember('site', c.key, made.id);
        if (site.enable === false) await api.send('PUT', `/sites/${made.id}`, { enable: false });
        return;
      }
      const id = idOf('site', c.key);
      if (c.action === 'delete') {
        await api.send('PUT', `/sites/${id}`, { delete: 1 });
        return;
      }
      // The API takes one field a call.
      for (const field of c.fields) await api.send('PUT', `/sites/${id}`, { [field]: site[field as 'url' | 'enable'] });
    },

    async 'site account'(c) {
      const account = c.entry as AccountEntry;
      if (c.action === 'create') {
        const [made] = await api.send<{ id: number }[]>('POST', `/sites/${idOf('site', account.site)}/accounts`, {
          accounts: [{ user: account.user, pwd: password(account.pwd) }],
        });
        remember('site account', c.key, made.id);
        if (account.enable === false) await api.send('PUT', `/sites/accounts/${made.id}`, { enable: false });
        return;
      }
      const id = idOf('site account', c.key);
      if (c.action === 'delete') {
        await api.send('PUT', `/sites/accounts/${id}`, { enable: false });
        return;
      }
      for (const field of c.fields)
        await api.send('PUT', `/sites/accounts/${id}`, {
          [field]: field === 'pwd' ? password(account.pwd) : account.enable,
        });
    },

    async 'bank account'(c) {
      const b = c.entry as BankAccountEntry;
      const settings = (fields: readonly string[]) => {
        const body: Record<string, unknown> = {};
        for (const f of fields) {
          if (f === 'enabled')
            body.status = b.enabled === false ? BankAccountStatus.values.Disable : BankAccountStatus.values.Enable;
          else if (f === 'range') body.range = b.range?.map(([from, to]) => [secondsOf(from), secondsOf(to)]);
          else if (f === 'pwd') body.pwd = password(b.pwd);
          else body[f] = b[f as keyof BankAccountEntry];
        }
        return body;
      };
      if (c.action === 'create') {
        const made = await api.send<{ id: number }>('POST', '/bank/bank-accounts', {
          bank_name: Bank.values[b.bank],
          user: b.user,
          pwd: password(b.pwd),
        });
        remember('bank account', c.key, made.id);
        // What the create does not take; a new account is enabled, without a webhook.
        const rest = (['interval', 'range', 'holder', 'mobile', 'remark', 'webhook', 'enabled'] as const).filter(
          (f) => b[f] !== undefined && !(f === 'webhook' && b.webhook === null) && !(f === 'enabled' && b.enabled),
        );
        if (rest.length) await api.send('PUT', `/bank/bank-account/${made.id}`, settings(rest));
        return;
      }
      const id = idOf('bank account', c.key);
      if (c.action === 'delete') {
        await api.send('PUT', `/bank/bank-account/${id}`, { status: BankAccountStatus.values.Disable });
        return;
      }
      await api.send('PUT', `/bank/bank-account/${id}`, settings(c.fields));
    },

    async 'auto-check rule'(c) {
      const r = c.entry as AutoCheckRuleEntry;
      const body = () => ({
        name: r.name,
        sites: siteIds(r.sites),
        points: r.points.map((p) => ({
          point: Process.values[p.process],
          modes: p.modes.map((m) => TestMode.values[m]),
        })),
        times: r.times,
      });
      if (c.action === 'create') {
        const made = await api.send<{ id: number }>('POST', '/auto-check/rules', body());
        remember('auto-check rule', c.key, made.id);
        if (r.enable === false) await api.send('PUT', `/auto-check/rules/${made.id}`, { enable: false });
        return;
      }
      const id = idOf('auto-check rule', c.key);
      if (c.action === 'delete') {
        await api.send('PUT', `/auto-check/rules/${id}`, { delete: 1 });
        return;
      }
      if (c.fields.some((f) => f !== 'enable')) await api.send('PUT', `/auto-check/rules/${id}`, body());
      if (c.fields.includes('enable')) await api.send('PUT', `/auto-check/rules/${id}`, { enable: r.enable });
    },

    async 'maintenance window'(c) {
      const w = c.entry as MaintenanceEntry;
      const current = c.current as MaintenanceEntry | undefined;
      const body = () => ({
        name: w.name,
        sites: siteIds(w.sites),
        mode: w.mode,
        // The whole form's `enabled` defaults to true: a file that leaves it out keeps the stack's.
        enabled: w.enabled ?? current?.enabled ?? true,
        ...(w.kind === 'once'
          ? { kind: 'once', start_at: Date.parse(w.start_at), end_at: Date.parse(w.end_at) }
          : { kind: 'weekly', days: w.days, start_time: w.start_time, end_time: w.end_time }),
      });
      if (c.action === 'create') {
        const made = await api.send<{ id: number }>('POST', '/maintenance', body());
        remember('maintenance window', c.key, made.id);
        return;
      }
      const id = idOf('maintenance window', c.key);
      if (c.action === 'delete') await api.send('DELETE', `/maintenance/${id}`);
      else if (c.fields.every((f) => f === 'enabled'))
        await api.send('PUT', `/maintenance/${id}`, { enabled: w.enabled });
      else await api.send('PUT', `/maintenance/${id}`, body());
    },

    async 'alert rule'(c) {
      const a = c.entry as AlertRuleEntry;
      const current = c.current as AlertRuleEntry | undefined;
      const body = () => ({
        name: a.name,
        expression: a.expression,
        scope:
          a.scope.kind === 'bank'
            ? { kind: 'bank', bank: Bank.values[a.scope.bank] }
            : a.scope.kind === 'accounts'
              ? { kind: 'accounts', account_ids: a.scope.accounts.map((k) => idOf('bank account', k)) }
              : { kind: 'all' },
        severity: a.severity,
        // null: the bank chat; left out of the file: the stack's.
        chat_id: a.chat_id !== undefined ? a.chat_id : (current?.chat_id ?? null),
        enabled: a.enabled ?? current?.enabled ?? true,
      });
      if (c.action === 'create') {
        const made = await api.send<{ id: number }>('POST', '/bank/alert-rules', body());
        remember('alert rule', c.key, made.id);
        return;
      }
      const id = idOf('alert rule', c.key);
      if (c.action === 'delete') await api.send('DELETE', `/bank/alert-rules/${id}`);
      else await api.send('PUT', `/bank/alert-rules/${id}`, body());
    },
  };

  const failed: Change[] = [];
  for (const c of changes) {
    if (c.action === 'unchanged') {
      ctx.log(describeChange(c));
      continue;
    }
    try {
      await run[c.kind](c);
      ctx.log(describeChange(c));
    } catch (error) {
      failed.push(c);
      const why = error instanceof ApiError ? error.describe() : (error as Error).message;
      ctx.error(`failed: ${describeChange(c)}: ${why}`);
    }
  }
  return { failed };
}
