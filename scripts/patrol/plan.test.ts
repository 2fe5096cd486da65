import { describe, expect, it } from 'vitest';
import {
  type AutoCheckRuleEntry,
  type BankAccountEntry,
  envRef,
  type MaintenanceEntry,
  type PatrolFile,
} from '../../shared/schemas/patrolFile.js';
import { neededVariables } from './apply.js';
import { parsePatrolFile, toYaml, unresolvedReferences } from './main.js';
import { countLine, describeChange, planChanges } from './plan.js';

const site = (name: string, extra: Partial<NonNullable<PatrolFile['sites']>[number]> = {}) => ({
  name,
  url: `https://${name.toLowerCase().replace(/\W+/g, '-')}.example.com/`,
  enable: true,
  accounts: [{ user: 'agent01', pwd: `\${env:PWD_${name.replace(/\W+/g, '_').toUpperCase()}}`, enable: true }],
  ...extra,
});
const rule: AutoCheckRuleEntry = {
  name: 'Nightly',
  sites: ['Shop A', 'Shop B'],
  points: [
    { process: 'PlaceBets', modes: ['TT', 'D4'] },
    { process: 'Login', modes: ['D4'] },
  ],
  times: [
    { day: 3, times: ['14:00', '02:00'] },
    { day: 1, times: ['02:00'] },
  ],
  enable: true,
};
const release: MaintenanceEntry = {
  name: 'Release',
  kind: 'once',
  sites: 'all',
  mode: 'pause',
  start_at: '2030-01-01T02:00:00.000Z',
  end_at: '2030-01-01T04:00:00.000Z',
  enabled: true,
};
const kbz: BankAccountEntry = {
  bank: 'KBZ',
  user: 'kbz01',
  pwd: envRef('PATROL_BANK_KBZ_KBZ01'),
  enabled: true,
  interval: 10,
  range: [['08:00', '20:00']],
  holder: '',
  mobile: '',
  remark: '',
  webhook: null,
};
const stack: PatrolFile = {
  version: 1,
  sites: [site('Shop A'), site('Shop B'), site('Old shop')],
  auto_check_rules: [
    {
      ...rule,
      sites: ['Shop B', 'Shop A'],
      points: [
        { process: 'Login', modes: ['D4'] },
        { process: 'PlaceBets', modes: ['D4', 'TT'] },
      ],
      times: [
        { day: 1, times: ['02:00'] },
        { day: 3, times: ['02:00', '14:00'] },
      ],
    },
  ],
  maintenance_windows: [release],
  bank_accounts: [kbz],
};
const lines = (file: PatrolFile, opts = {}) => planChanges(file, { file: stack }, opts).changes.map(describeChange);

describe('the diff of a file against the stack', () => {
  it('finds nothing to do when the file says what the stack holds, however it is ordered', () => {
    const file: PatrolFile = {
      ...stack,
      auto_check_rules: [rule],
      // The same instants written with an offset, the same range with seconds.
      maintenance_windows: [
        { ...release, start_at: '2030-01-01T09:30:00+07:30', end_at: '2030-01-01T04:00:00Z' } as MaintenanceEntry,
      ],
      bank_accounts: [{ ...kbz, range: [['08:00:00', '20:00']] }],
    };
    const plan = planChanges(file, { file: stack });
    expect(plan.changes.every((c) => c.action === 'unchanged')).toBe(true);
    expect(plan.changes).toHaveLength(9);
    expect(countLine(plan)).toBe('0 to create, 0 to update, 0 to delete, 9 unchanged');
  });

  it('creates, updates with the fields that change, and keeps what the file leaves out without --prune', () => {
    const file: PatrolFile = {
      version: 1,
      sites: [site('Shop A', { url: 'https://a2.example.com/', enable: false }), site('Shop B'), site('New shop')],
      bank_accounts: [{ bank: 'KBZ', user: 'kbz01', pwd: envRef('X'), interval: 30 }],
    };
    const plan = planChanges(file, { file: stack });
    expect(plan.changes.map(describeChange)).toEqual([
      'update site "Shop A": url, enable',
      'unchanged site "Shop B"',
      'create site "New shop"',
      'unchanged site account "Shop A/agent01"',
      'unchanged site account "Shop B/agent01"',
      'create site account "New shop/agent01"',
      'update bank account "KBZ/kbz01": interval',
    ]);
    // Old shop (its accounts would go with it); rules and windows are sections the file leaves out, untouched.
    expect(plan.kept).toBe(1);
    expect(countLine(plan)).toBe(
      '2 to create, 2 to update, 0 to delete, 3 unchanged; 1 not in the file, kept (--prune deletes them)',
    );
  });

  it('deletes with --prune, after every create and update, the referring kinds first', () => {
    const file: PatrolFile = {
      version: 1,
      sites: [site('Shop A', { accounts: [] }), site('Shop B', { accounts: undefined })],
      auto_check_rules: [],
      maintenance_windows: [],
      bank_accounts: [],
    };
    expect(lines(file, { prune: true })).toEqual([
      'unchanged site "Shop A"',
      'unchanged site "Shop B"',
      'delete maintenance window "Release"',
      'delete auto-check rule "Nightly"',
      'delete bank account "KBZ/kbz01" (disabled: the API keeps bank accounts)',
      // Shop B lists no accounts: they are left alone; Old shop's go with it.
      'delete site account "Shop A/agent01" (disabled: the API keeps site accounts)',
      'delete site "Old shop"',
    ]);
  });

  it('does not prune again what it disabled, nor a one-off window that has ended', () => {
    const disabled: PatrolFile = {
      ...stack,
      bank_accounts: [{ ...kbz, enabled: false }],
    };
    const ended = [{ ...release, name: 'Last year' }];
    const plan = planChanges(
      { version: 1, bank_accounts: [], maintenance_windows: [] },
      { file: disabled, hidden: { version: 1, maintenance_windows: ended } },
      { prune: true },
    );
    expect(plan.changes.map(describeChange)).toEqual(['delete maintenance window "Release"']);
    // The file's own ended window matches the stack's: nothing is made again.
    const again = planChanges(
      { version: 1, maintenance_windows: ended },
      { file: { version: 1, maintenance_windows: [] }, hidden: { version: 1, maintenance_windows: ended } },
    );
    expect(again.changes.map(describeChange)).toEqual(['unchanged maintenance window "Last year"']);
  });

  it('writes passwords only on create, and on every account with --passwords', () => {
    const file: PatrolFile = {
      version: 1,
      sites: [site('Shop A'), site('New shop')],
      bank_accounts: stack.bank_accounts,
    };
    const plain = planChanges(file, { file: stack });
    expect(neededVariables(plain.changes)).toEqual(['PWD_NEW_SHOP']);
    const all = planChanges(file, { file: stack }, { passwords: true });
    expect(all.changes.filter((c) => c.action === 'update').map(describeChange)).toEqual([
      'update site account "Shop A/agent01": pwd',
      'update bank account "KBZ/kbz01": pwd',
    ]);
    expect(neededVariables(all.changes).sort()).toEqual(['PATROL_BANK_KBZ_KBZ01', 'PWD_NEW_SHOP', 'PWD_SHOP_A']);
  });
});

describe('the file', () => {
  it('reads back what export writes', () => {
    const text = toYaml(stack, 'https://patrol.example.com/api/v1/patrol.schema.json');
    expect(text.split('\n')[0]).toBe(
      '# yaml-language-server: $schema=https://patrol.example.com/api/v1/patrol.schema.json',
    );
    expect(parsePatrolFile(text)).toEqual(stack);
  });

  it('refuses a password written out, a key twice and a bad field, each named', () => {
    const bad = `version: 1
sites:
  - name: Shop A
    url: ftp://a.example.com
    accounts:
      - user: agent01
        pwd: hunter2
  - name: Shop A
    url: https://a.example.com
`;
    expect(() => parsePatrolFile(bad)).toThrow(/sites\.0\.url: Please give the full address/);
    expect(() => parsePatrolFile(bad)).toThrow(/sites\.0\.accounts\.0\.pwd: Write a password as \$\{env:NAME\}/);
    const twice = bad.replace('ftp:', 'https:').replace('hunter2', envRef('A'));
    expect(() => parsePatrolFile(twice)).toThrow('site "Shop A" is in the file twice');
    expect(() => parsePatrolFile('version: 1\nsites: [\n')).toThrow(/^YAML: /);
  });

  it('names a reference neither in the file nor on the stack', () => {
    const file: PatrolFile = {
      version: 1,
      sites: [site('Shop A')],
      auto_check_rules: [{ ...rule, sites: ['Shop A', 'Shop C'] }],
      alert_rules: [
        {
          name: 'Big credit',
          expression: 'credit > 5,000,000',
          scope: { kind: 'accounts', accounts: ['AYA/x'] },
          severity: 'warning',
        },
      ],
    };
    expect(unresolvedReferences(file, stack, false)).toEqual([
      'auto-check rule "Nightly": site "Shop C" is neither in the file nor on the stack',
      'alert rule "Big credit": bank account "AYA/x" is neither in the file nor on the stack',
    ]);
    // With --prune, a site only the stack holds is about to go.
    const onStackOnly = { ...file, auto_check_rules: [{ ...rule, sites: ['Shop B'] }], alert_rules: [] };
    expect(unresolvedReferences(onStackOnly, stack, false)).toEqual([]);
    expect(unresolvedReferences(onStackOnly, stack, true)).toEqual([
      'auto-check rule "Nightly": site "Shop B" is neither in the file nor on the stack',
    ]);
  });
});
