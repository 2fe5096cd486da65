import { ReportMessages, ReportPeriod } from '@shared/schemas/reports';
import { afterEach, describe, expect, it } from 'vitest';
import { i18n, t } from '@/i18n';
import { START_HINTS } from './reportForm';

afterEach(() => void i18n.changeLanguage('en'));

describe("the reports' screens in Chinese", () => {
  it('have every text they show in zh: literals, column and section names, hints, refusals and periods', () => {
    void i18n.changeLanguage('zh');
    const sources = import.meta.glob<string>(['./*.tsx', './*.ts', '!./*.test.*', '!./testReports.ts'], {
      query: '?raw',
      import: 'default',
      eager: true,
    });
    const patterns = [
      /\bt\('([^']+)'/g, // t('…')
      /\blabel: '([^']+)'/g, // a column's or an action's label
      /\b(?:title|label|emptyText)="([^"]+)"/g, // a section's title, a table's name and empty text
      /\b(?:successTip|failureTip): '([^']+)'/g, // the request layer's toasts
      /^ {2}(?:csv|pdf|day|week|month): '([^']+)'/gm, // tables keyed by file kind or period
    ];
    const literals = Object.values(sources).flatMap((src) =>
      patterns.flatMap((re) => [...src.matchAll(re)].map((m) => m[1] as string)),
    );
    const texts = [
      ...literals,
      // The refusals Generate now can show (the schedule's are the config screen's).
      ...(['period', 'start', 'weekStart', 'monthStart', 'notPast'] as const).map((k) => ReportMessages[k]),
      ...Object.values(START_HINTS),
      ...ReportPeriod.options.map((o) => o.label),
    ];
    expect(literals.length).toBeGreaterThan(60);
    // Each kind of place is read: a column, a section, a toast, a keyed table.
    for (const text of ['Reconciliation differences', 'Bank accounts', 'Fetch report failed.', 'Download PDF failed'])
      expect(literals).toContain(text);
    // A name both languages write alike.
    const same = new Set(['Telegram']);
    expect([...new Set(texts)].filter((text) => t(text) === text && !same.has(text))).toEqual([]);
  });
});
