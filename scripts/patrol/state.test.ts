import { describe, expect, it } from 'vitest';
import { envRef } from '../../shared/schemas/patrolFile.js';
import { ApiError, type PatrolApi } from './client.js';
import { planChanges } from './plan.js';
import { readStack } from './state.js';

// The stack read as a file, on answers the test sets: what the file cannot hold as it is.

const NOW = Date.parse('2026-12-07T12:00:00Z');

function fakeApi(lists: Record<string, unknown[] | 'missing'>): PatrolApi {
  return {
    base: 'https://patrol.example.com/api/v1',
    get: async () => {
      throw new Error('not used');
    },
    send: async () => {
      throw new Error('not used');
    },
    listAll: async <T>(path: string) => {
      const rows = lists[path];
      if (rows === 'missing' || rows === undefined) throw new ApiError(404, 4044, 'No such route');
      return rows as T[];
    },
  };
}

const window = (id: number, name: string, extra: object) => ({
  id,
  name,
  sites: [1],
  mode: 'pause',
  kind: 'once',
  start_at: null,
  end_at: null,
  days: null,
  start_time: null,
  end_time: null,
  enabled: true,
  ...extra,
});

const base = {
  '/sites': [
    { id: 1, name: 'Shop A', url: 'https://a.example.com/', enable: true },
    { id: 2, name: 'shop-a', url: 'https://a2.example.com/', enable: true },
    { id: 3, name: '仰光站', url: 'https://ygn.example.com/', enable: true },
  ],
  '/sites/accounts': [
    { id: 11, site_id: 1, user: 'x', enable: true },
    { id: 12, site_id: 2, user: 'x', enable: true },
    { id: 13, site_id: 3, user: '代理', enable: true },
  ],
  '/auto-check/rules': [
    {
      id: 21,
      name: 'Gone',
      sites: [99],
      checkpoints: { points: [{ process: 1, modes: [1] }] },
      times: [{ day: 1, times: ['02:00'] }],
      enable: true,
    },
    {
      id: 22,
      name: 'Half',
      sites: [99, 1],
      checkpoints: { points: [{ process: 1, modes: [1] }] },
      times: [{ day: 1, times: ['02:00'] }],
      enable: true,
    },
  ],
  '/maintenance': [
    window(31, 'Last week', { start_at: NOW - 8 * 86_400_000, end_at: NOW - 7 * 86_400_000 }),
    window(32, 'Tomorrow', { start_at: NOW + 86_400_000, end_at: NOW + 90_000_000 }),
  ],
  '/bank/bank-accounts': [
    {
      id: 41,
      bank_name: 1,
      user: 'ops',
      status: 2,
      monitor_interval: 30,
      monitor_range: [[0, 86_400]],
      holder: '',
      mobile: '',
      remark: '',
      webhook: 'https://***@hooks.example.com/x?***',
    },
  ],
};

describe('the stack as a file', () => {
  it('leaves out what the file cannot hold, says why, and still matches it', async () => {
    const state = await readStack(fakeApi({ ...base, '/bank/alert-rules': 'missing' }), NOW);
    // No alert rules on this stack: the section is left out, not empty.
    expect(state.file).not.toHaveProperty('alert_rules');
    expect(state.file.auto_check_rules?.map((r) => [r.name, r.sites])).toEqual([['Half', ['Shop A']]]);
    expect(state.hidden.auto_check_rules?.map((r) => r.name)).toEqual(['Gone']);
    expect(state.file.maintenance_windows?.map((w) => w.name)).toEqual(['Tomorrow']);
    expect(state.hidden.maintenance_windows?.map((w) => w.name)).toEqual(['Last week']);
    // Incorrect is still on (only Disable is `enabled: false`); a masked webhook is left out.
    expect(state.file.bank_accounts?.[0]).toMatchObject({ enabled: true, range: [['00:00', '24:00']] });
    expect(state.file.bank_accounts?.[0]).not.toHaveProperty('webhook');
    expect(state.warnings).toEqual([
      'auto-check rule "Gone": site 99 was deleted, left out',
      'auto-check rule "Gone" left out: every site it named was deleted',
      'auto-check rule "Half": site 99 was deleted, left out',
      'bank account "KBZ/ops": webhook left out (masked for this token; export with an operate token)',
    ]);
    // Password variables: from the key, with a digest where two keys meet or the letters are lost.
    const pwds = state.file.sites?.map((s) => s.accounts?.[0].pwd);
    expect(pwds?.[0]).toBe(envRef('PATROL_SITE_SHOP_A_X'));
    expect(pwds?.[1]).toMatch(/^\$\{env:PATROL_SITE_SHOP_A_X_[0-9A-F]{8}\}$/);
    expect(pwds?.[2]).toMatch(/^\$\{env:PATROL_SITE_[0-9A-F]{8}\}$/);

    // The file's own copy of a hidden entry is matched, not made again; --prune leaves hidden ones be.
    const [gone] = state.hidden.auto_check_rules ?? [];
    const plan = planChanges({ version: 1, auto_check_rules: [{ ...gone, sites: ['Shop A'] }] }, state, {
      prune: true,
    });
    expect(plan.changes.map((c) => `${c.action} ${c.key} ${c.fields}`)).toEqual(['update Gone sites', 'delete Half ']);
  });

  it('maps an alert rule to bank and account keys', async () => {
    const state = await readStack(
      fakeApi({
        ...base,
        '/bank/alert-rules': [
          {
            id: 51,
            name: 'Low',
            expression: 'balance < 1',
            scope: { kind: 'accounts', account_ids: [41, 77] },
            severity: 'info',
            chat_id: null,
            enabled: true,
          },
          {
            id: 52,
            name: 'AYA',
            expression: 'debit > 1',
            scope: { kind: 'bank', bank: 2 },
            severity: 'critical',
            enabled: false,
          },
          {
            id: 53,
            name: 'Orphan',
            expression: 'drift > 0',
            scope: { kind: 'accounts', account_ids: [77] },
            severity: 'warning',
            chat_id: '-100',
            enabled: true,
          },
        ],
      }),
      NOW,
    );
    expect(state.file.alert_rules).toEqual([
      {
        name: 'AYA',
        expression: 'debit > 1',
        scope: { kind: 'bank', bank: 'AYA' },
        severity: 'critical',
        chat_id: null,
        enabled: false,
      },
      {
        name: 'Low',
        expression: 'balance < 1',
        scope: { kind: 'accounts', accounts: ['KBZ/ops'] },
        severity: 'info',
        chat_id: null,
        enabled: true,
      },
    ]);
    expect(state.hidden.alert_rules?.map((a) => a.name)).toEqual(['Orphan']);
    expect(state.ids.get('alert rule')?.get('Orphan')).toBe(53);
  });
});
