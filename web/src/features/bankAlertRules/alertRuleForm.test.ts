import { EXPECTED } from '@shared/alertRules/index';
import { AlertScopeKind, AlertSeverity, AlertRuleMessages } from '@shared/schemas/bankAlertRules';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n, t } from '@/i18n';
import { alertRuleFormOf, bodyOf, checkAlertRule, emptyAlertRuleForm } from './alertRuleForm';
import { EXPECTED_WORDS } from './ExpressionField';

afterEach(() => {
  void i18n.changeLanguage('en');
});

describe('alert rule form', () => {
  it('checks with the server schema and the server parser', () => {
    const empty = checkAlertRule(emptyAlertRuleForm());
    expect(empty.errors).toMatchObject({ name: 'Please enter rule name', expression: 'Please enter the condition' });
    const bad = checkAlertRule({ ...emptyAlertRuleForm(), name: 'x', expression: 'balance >' });
    expect(bad.errors).toEqual({ expression: 'The condition is not valid.' });
    const noAccounts = checkAlertRule({
      ...emptyAlertRuleForm(),
      name: 'x',
      expression: 'drift > 0',
      scope_kind: 'accounts',
    });
    expect(noAccounts.errors).toEqual({ 'scope.account_ids': 'Please choose the accounts' });
    const good = checkAlertRule({
      ...emptyAlertRuleForm(),
      name: ' x ',
      expression: 'drift > 0',
      scope_kind: 'bank',
      bank: 2,
    });
    expect(good.body).toEqual({
      name: 'x',
      expression: 'drift > 0',
      scope: { kind: 'bank', bank: 2 },
      severity: 'warning',
      chat_id: null,
      enabled: true,
    });
  });

  it('opens a saved rule as it was saved', () => {
    const rule = {
      id: 1,
      created_at: 0,
      updated_at: 0,
      name: 'n',
      expression: 'credit > 5',
      scope: { kind: 'accounts' as const, account_ids: [3, 4] },
      severity: 'info' as const,
      chat_id: '@ops_room',
      enabled: false,
    };
    expect(bodyOf(alertRuleFormOf(rule))).toEqual({
      name: 'n',
      expression: 'credit > 5',
      scope: { kind: 'accounts', account_ids: [3, 4] },
      severity: 'info',
      chat_id: '@ops_room',
      enabled: false,
    });
  });

  it('has every text of the screen in Chinese', () => {
    void i18n.changeLanguage('zh');
    const texts = [
      ...EXPECTED.map((e) => EXPECTED_WORDS[e]),
      ...AlertScopeKind.options.map((o) => o.label),
      ...AlertSeverity.options.map((o) => o.label),
      ...(Object.values(AlertRuleMessages).filter((m) => typeof m === 'string') as string[]),
      'Alert rules',
      'New rule',
      'Preview',
      'Condition',
      'Chat',
      'Bank chat',
      'Severity',
      'The condition is not valid.',
      'Alert rule not found.',
    ];
    const missing = texts.filter((text) => t(text) === text && !/^["=]/.test(text));
    expect(missing).toEqual([]);
  });

  it('has every literal text its screens pass to t() in Chinese', () => {
    void i18n.changeLanguage('zh');
    const sources = import.meta.glob<string>(['./*.tsx', './*.ts', '!./*.test.*'], {
      query: '?raw',
      import: 'default',
      eager: true,
    });
    const literals = Object.values(sources).flatMap((src) =>
      [...src.matchAll(/\bt\('([^']+)'/g)].map((m) => m[1] as string),
    );
    expect(literals.length).toBeGreaterThan(20);
    expect(literals.filter((text) => t(text) === text)).toEqual([]);
  });
});
