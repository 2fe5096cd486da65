import { ReportMessages } from '@shared/schemas/reports';
import { describe, expect, it } from 'vitest';
import { checkReportForm, latestStart, periodEndExclusive } from './reportForm';

// Wednesday 2026-12-09 in the configured zone.
const TODAY = '2026-12-09';

describe('the Generate now form', () => {
  it('offers the latest period that has ended: yesterday, last week from its Monday, last month from its 1st', () => {
    expect(latestStart('day', TODAY)).toBe('2026-12-08');
    expect(latestStart('week', TODAY)).toBe('2026-11-30');
    expect(latestStart('month', TODAY)).toBe('2026-11-01');
    // On a Monday the week before is the latest; in January, December of the year before.
    expect(latestStart('week', '2026-12-07')).toBe('2026-11-30');
    expect(latestStart('week', '2026-12-06')).toBe('2026-11-23');
    expect(latestStart('month', '2027-01-01')).toBe('2026-12-01');
  });

  it('ends a month on its own last day, February included', () => {
    expect(periodEndExclusive('month', '2026-02-01')).toBe('2026-03-01');
    expect(periodEndExclusive('month', '2026-12-01')).toBe('2027-01-01');
    expect(periodEndExclusive('week', '2026-11-30')).toBe('2026-12-07');
  });

  it('sends a past week from its Monday, a past month from its 1st, any past day', () => {
    expect(checkReportForm({ period: 'week', start: '2026-11-30' }, TODAY)).toEqual({
      body: { period: 'week', start: '2026-11-30' },
    });
    expect(checkReportForm({ period: 'month', start: '2026-10-01' }, TODAY).body).toBeDefined();
    expect(checkReportForm({ period: 'day', start: '2026-12-08' }, TODAY).body).toBeDefined();
  });

  it('refuses a week that does not start on a Monday and a month that does not start on the 1st', () => {
    expect(checkReportForm({ period: 'week', start: '2026-12-01' }, TODAY).errors).toEqual({
      start: ReportMessages.weekStart,
    });
    expect(checkReportForm({ period: 'month', start: '2026-11-02' }, TODAY).errors).toEqual({
      start: ReportMessages.monthStart,
    });
  });

  it('refuses a period that has not ended yet, and a start that is no date', () => {
    expect(checkReportForm({ period: 'day', start: TODAY }, TODAY).errors).toEqual({ start: ReportMessages.notPast });
    expect(checkReportForm({ period: 'week', start: '2026-12-07' }, TODAY).errors).toEqual({
      start: ReportMessages.notPast,
    });
    expect(checkReportForm({ period: 'month', start: '2026-12-01' }, TODAY).errors).toEqual({
      start: ReportMessages.notPast,
    });
    for (const start of ['', 'last week', '2026-13-01', '2026-02-30'])
      expect(checkReportForm({ period: 'day', start }, TODAY).errors).toEqual({ start: ReportMessages.start });
  });
});
