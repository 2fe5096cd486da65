import { describe, expect, it } from 'vitest';
import { config } from '../lib/config.js';
import { renderLine } from '../notifications/telegram/formatMessage.js';
import { incidentKeyboard, incidentLines } from './incidentTelegram.js';
import type { StoredIncident } from './store.js';

const at = (iso: string) => Date.parse(iso);
const incident = (over: Partial<StoredIncident> = {}): StoredIncident => ({
  id: 12,
  created_at: at('2026-11-27T03:00:00Z'),
  kind: 'check',
  bank_account_id: null,
  bank_name: null,
  account_user: null,
  rule_id: null,
  rule_name: null,
  site_id: 3,
  site_name: '<b>Shop</b> & Co',
  process: 1,
  mode: 1,
  status: 1,
  opened_at: at('2026-11-27T03:00:00Z'),
  resolved_at: null,
  failures: 3,
  last_failure_at: at('2026-11-27T03:30:00Z'),
  last_message: 'Login failed: <locked>',
  acknowledged_by: null,
  snoozed_until: null,
  open_key: '3:1:1',
  severity: 'warning',
  parent_id: null,
  cause: null,
  children: 0,
  ...over,
});
const text = (i: StoredIncident, now = at('2026-11-27T04:00:00Z')) =>
  incidentLines(i, 'Asia/Yangon', now).map(renderLine).join('\n');

describe('an incident’s Telegram message', () => {
  it('says what fails, since when and how often, on the configured zone’s clock, with supplied text escaped', () => {
    expect(text(incident())).toBe(
      [
        '<b>🔴 Failing: incident #12</b>',
        '<b>&lt;b&gt;Shop&lt;/b&gt; &amp; Co</b> · Login Account (D4)',
        'Failures: 3 · since 2026-11-27 09:30 · last 2026-11-27 10:00',
        'Last: Login failed: &lt;locked&gt;',
      ].join('\n'),
    );
  });

  it('names who acknowledged it, and until when it is snoozed (a snooze that ran out reads Failing again)', () => {
    expect(text(incident({ status: 2, acknowledged_by: { id: 4, nickname: 'Mya' } }))).toContain(
      'Acknowledged: incident #12</b>',
    );
    expect(text(incident({ status: 2, acknowledged_by: { id: 4, nickname: 'Mya' } }))).toContain('Acknowledged by Mya');
    const snoozed = incident({ status: 3, snoozed_until: at('2026-11-27T05:00:00Z') });
    expect(text(snoozed)).toContain('Snoozed until 2026-11-27 11:30');
    expect(text(snoozed, at('2026-11-27T05:00:00Z'))).toContain('Failing: incident #12');
  });

  it("a parent's says its title, how many children and their names (the first 20), and how far it escalated (issue 45)", () => {
    const parent = incident({
      site_id: null,
      site_name: 'Login Account (D4) on several sites',
      cause: 'same_check',
      children: 3,
      child_names: ['Alpha', 'Beta', 'Gamma'],
      escalation_step: 2,
    });
    const lines = text(parent).split('\n');
    expect(lines[1]).toBe('<b>Login Account (D4) on several sites</b>');
    expect(lines[2]).toBe('3 incident(s): Alpha, Beta, Gamma');
    expect(lines.at(-1)).toBe('Escalated to the escalation chat and the super users');
    const many = Array.from({ length: 25 }, (_, n) => `Site ${n + 1}`);
    expect(text(incident({ ...parent, children: 25, child_names: many, escalation_step: 1 }))).toContain(
      'Site 20 and 5 more\nFailures',
    );
    expect(text(incident({ escalation_step: 1 }))).toContain('Escalated to the escalation chat');
  });

  it('offers every action while unresolved, and only Open once resolved', () => {
    const buttons = (i: StoredIncident) =>
      incidentKeyboard(i)
        .inline_keyboard.flat()
        .map((b) => ('callback_data' in b ? b.callback_data : b.url));
    expect(buttons(incident())).toEqual([
      'i:12:ack',
      'i:12:rerun',
      'i:12:s60',
      'i:12:s240',
      'i:12:mnt',
      `${config.publicUrl}/incidents/12`,
    ]);
    expect(buttons(incident({ status: 4, resolved_at: at('2026-11-27T04:00:00Z') }))).toEqual([
      `${config.publicUrl}/incidents/12`,
    ]);
    expect(text(incident({ status: 4, resolved_at: at('2026-11-27T04:00:00Z') }))).toContain(
      'Resolved at 2026-11-27 10:30',
    );
  });
});
