import type { AutoCheckRule } from '@shared/schemas/autoCheck';
import { weekCalendar } from '@shared/autoCheckSchedule';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { operator, renderRoutes } from '@/test/renderApp';
import { stubApi } from '@/test/stubApi';
import ScheduleCalendarPage from './ScheduleCalendarPage';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.unstubAllGlobals());

const rule = (id: number, name: string, sites: number, times: AutoCheckRule['times'], enable = true) =>
  ({
    id,
    name,
    sites: Array.from({ length: sites }, (_, i) => 100 * id + i),
    checkpoints: { points: [{ process: 1, modes: [1] }] },
    times,
    enable,
    creator: null,
    created_at: 1,
    updated_at: 1,
    next_run: null,
  }) satisfies AutoCheckRule;

function renderCalendar(rules: AutoCheckRule[], concurrency: number) {
  // The server answers with the shared calendar of the rules it holds (shared/autoCheckSchedule.ts).
  const api = stubApi({
    'GET /auto-check/calendar': () => ({
      time_zone: 'Asia/Yangon',
      concurrency,
      cells: weekCalendar(rules, concurrency),
    }),
  });
  const view = renderRoutes(
    [
      { path: '/auto-checks/calendar', element: <ScheduleCalendarPage /> },
      { path: '/auto-checks/rules/:ruleID', element: <p>Rule page</p> },
    ],
    '/auto-checks/calendar',
    operator,
  );
  return { ...view, api };
}

const slot = (day: number, time: string) => document.querySelector(`[data-slot="${day} ${time}"]`);

describe('Schedule calendar', () => {
  it('marks slots of one minute whose sites together exceed the concurrency as a crowd, with the queueing', async () => {
    const { api } = renderCalendar(
      [
        rule(1, 'Morning', 3, [{ day: 1, times: ['09:00', '12:00'] }]),
        rule(2, 'Audit', 2, [{ day: 1, times: ['09:00'] }]),
        rule(3, 'Night', 4, [{ day: 7, times: ['23:30'] }]),
        rule(4, 'Off', 9, [{ day: 7, times: ['23:30'] }], false),
      ],
      4,
    );
    expect(await screen.findAllByText('Morning · 3 sites', { selector: 'button' }, { timeout: 15_000 })).toHaveLength(
      2,
    );
    await screen.findByText('Checkers run 4 sites at once (system config: checker concurrency)');

    const crowd = slot(1, '09:00');
    expect(crowd).toHaveAttribute('data-crowd', 'true');
    expect(crowd).toHaveTextContent('Morning · 3 sites');
    expect(crowd).toHaveTextContent('Audit · 2 sites');
    // 5 sites, 4 at once: one waits, two rounds.
    expect(crowd).toHaveTextContent('Crowd: 1 wait, 2 rounds');

    expect(slot(1, '12:00')).not.toHaveAttribute('data-crowd');
    // Exactly the concurrency is no crowd.
    expect(slot(7, '23:30')).not.toHaveAttribute('data-crowd');
    // A disabled rule is not on the calendar.
    expect(slot(7, '23:30')).not.toHaveTextContent('Off');
    expect(screen.getByText('1 crowded minutes')).toBeInTheDocument();
    expect(api.callsTo('GET', '/auto-check/calendar')).toHaveLength(1);
  });

  it('weighs slots against the configured concurrency', async () => {
    renderCalendar(
      [rule(1, 'Morning', 3, [{ day: 1, times: ['09:00'] }]), rule(2, 'Audit', 2, [{ day: 1, times: ['09:00'] }])],
      8,
    );
    await screen.findByText('Checkers run 8 sites at once (system config: checker concurrency)', undefined, {
      timeout: 15_000,
    });
    expect(slot(1, '09:00')).not.toHaveAttribute('data-crowd');
  });

  it('opens the rule of a clicked slot', async () => {
    const { router } = renderCalendar([rule(7, 'Morning', 1, [{ day: 3, times: ['06:15'] }])], 4);
    await userEvent.click(await screen.findByRole('button', { name: 'Morning · 1 site' }, { timeout: 15_000 }));
    expect(await screen.findByText('Rule page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auto-checks/rules/7');
  });

  it("shows 'Fetch rule failed.' when the calendar cannot be read", async () => {
    stubApi({});
    renderRoutes([{ path: '/c', element: <ScheduleCalendarPage /> }], '/c', operator);
    expect(await screen.findByRole('alert', {}, { timeout: 15_000 })).toHaveTextContent('Fetch rule failed.');
  });

  it("says 'No Check Time' when no enabled rule has a slot", async () => {
    renderCalendar([], 4);
    expect(await screen.findByText('No Check Time', undefined, { timeout: 15_000 })).toBeInTheDocument();
  });
});
