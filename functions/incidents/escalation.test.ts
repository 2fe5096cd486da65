import { describe, expect, it } from 'vitest';
import { stepDueAt } from './escalation.js';
import type { StoredIncident } from './store.js';

const OPENED = Date.UTC(2026, 11, 7, 10);
const MIN = 60_000;
const incident = (over: Partial<StoredIncident>) => ({ opened_at: OPENED, ...over }) as StoredIncident;

describe('when an escalation step is due (alerts.escalate_after_minutes 15)', () => {
  it('a warning: the escalation chat after 15 minutes, the super users after 30', () => {
    const warning = incident({ severity: 'warning' });
    expect(stepDueAt(warning, 1, 15 * MIN)).toBe(OPENED + 15 * MIN);
    expect(stepDueAt(warning, 2, 15 * MIN)).toBe(OPENED + 30 * MIN);
    expect(stepDueAt(warning, 3, 15 * MIN)).toBeUndefined();
  });

  it('a row stored before severity counts as a warning', () => {
    expect(stepDueAt(incident({}), 1, 15 * MIN)).toBe(OPENED + 15 * MIN);
  });

  it('a critical one at once, then after one period; an info one never', () => {
    expect(stepDueAt(incident({ severity: 'critical' }), 1, 15 * MIN)).toBe(OPENED);
    expect(stepDueAt(incident({ severity: 'critical' }), 2, 15 * MIN)).toBe(OPENED + 15 * MIN);
    expect(stepDueAt(incident({ severity: 'info' }), 1, 15 * MIN)).toBeUndefined();
  });

  it('counts from the end of a snooze, and never with 0 minutes', () => {
    const unsnoozed = incident({ severity: 'warning', escalation_from: OPENED + 240 * MIN });
    expect(stepDueAt(unsnoozed, 2, 15 * MIN)).toBe(OPENED + 270 * MIN);
    expect(stepDueAt(incident({ severity: 'critical' }), 1, 0)).toBeUndefined();
  });
});
