import { weekStampAt } from '@shared/autoCheckSchedule';
import { wallClock } from '@shared/zoneClock';
import type { CalendarCell } from '@shared/schemas/autoCheck';
import { type BankDashboard, type DeliveryDashboard, type ScorecardRow, scorecardOf } from '@shared/schemas/dashboard';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '@/i18n';
import { formatDateTime } from '@/app/format';
import { jsonResponse, ok } from '@/test/renderApp';
import { operator, renderRoutes } from '@/test/renderApp';
import { stubApi } from '@/test/stubApi';
import DashboardPage from './DashboardPage';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => {
  vi.unstubAllGlobals();
  void i18n.changeLanguage('en');
});

const row = (over: Partial<ScorecardRow>): ScorecardRow => ({
  site_id: 1,
  site_name: 'Lucky 4D',
  process: 1,
  mode: 1,
  runs: 10,
  passed: 10,
  failed: 0,
  flaky: 0,
  degraded: 0,
  pass_rate: 1,
  flake_rate: 0,
  p50_ms: 1200,
  p95_ms: 2400,
  last_status: 100,
  last_at: Date.UTC(2026, 10, 27, 4),
  ...over,
});

const SCORECARD = [
  row({}),
  row({ site_id: 2, site_name: 'Mega Agent', runs: 4, passed: 1, failed: 3, pass_rate: 0.25, last_status: 99 }),
  row({ site_id: 3, site_name: 'Zen Agent', runs: 8, passed: 8, flaky: 2, flake_rate: 0.25 }),
];

const WINDOW = {
  hours: 24,
  from: Date.UTC(2026, 10, 26, 4),
  to: Date.UTC(2026, 10, 27, 4),
  days: ['2026-11-26', '2026-11-27'],
};

const BANK: BankDashboard = {
  ...WINDOW,
  accounts_by_status: [
    { status: 1, count: 3 },
    { status: 9, count: 1 },
  ],
  stale: [7],
  unreconciled: {
    count: 2,
    latest: {
      id: 31,
      account_id: 7,
      amount: 5000,
      created_at: Date.UTC(2026, 10, 27, 3),
    } as BankDashboard['unreconciled']['latest'],
  },
  poll_lag_p95_ms: 1800,
  polls: 1200,
  polls_failed: 3,
  statements: { total: 12, per_hour: [{ day: '2026-11-27', hour: 10, count: 12 }] },
  last_statement_at: [{ account_id: 7, at: Date.UTC(2026, 10, 27, 3) }],
};

const DELIVERY: DeliveryDashboard = {
  ...WINDOW,
  webhook: { sent: 97, failed: 3, success_rate: 0.97, paused_endpoints: [4] },
  telegram: { sent: 40, failed: 2 },
};

function renderHome(routes: Parameters<typeof stubApi>[0], path = '/') {
  const api = stubApi({
    'GET /dashboard/heatmap': () => ({ result: { dates: [], sites: [] } }),
    'GET /dashboard/timings': () => ({ result: [] }),
    'GET /auto-check/calendar': () => ({ time_zone: 'Asia/Yangon', concurrency: 4, cells: [] }),
    ...routes,
  });
  const view = renderRoutes(
    [
      { path: '/', element: <DashboardPage /> },
      { path: '/tasks/subtasks', element: <p>Sub tasks page</p> },
    ],
    path,
    operator,
  );
  return { ...view, api };
}

const panel = (name: string) => screen.findByRole('region', { name }, { timeout: 15_000 });

describe('Home dashboard', () => {
  it('colours each health cell by its last result with its pass and flake rates, and opens its subtasks', async () => {
    const { api } = renderHome({
      'GET /dashboard/scorecard': () => ({ result: scorecardOf(SCORECARD) }),
      'GET /dashboard/bank': () => BANK,
      'GET /dashboard/delivery': () => DELIVERY,
    });
    const health = await panel('Health');
    const failing = await within(health).findByRole('button', { name: 'Mega Agent · Login Account (D4)' });
    expect(failing).toHaveTextContent('25%');
    expect(within(health).getByRole('button', { name: 'Zen Agent · Login Account (D4)' })).toHaveTextContent(
      'flaky 25%',
    );
    expect(api.callsTo('GET', '/dashboard/scorecard')[0].params.get('days')).toBe('7');

    await userEvent.click(within(health).getByRole('tab', { name: '30 days' }));
    await vi.waitFor(() =>
      expect(api.callsTo('GET', '/dashboard/scorecard').map((c) => c.params.get('days'))).toContain('30'),
    );

    // The 30-day answer replaced the cells: the one to click is the new one.
    await userEvent.click(await within(health).findByRole('button', { name: 'Mega Agent · Login Account (D4)' }));
    expect(await screen.findByText('Sub tasks page')).toBeInTheDocument();
  });

  it('shows the bank and delivery figures from their routes', async () => {
    renderHome({
      'GET /dashboard/scorecard': () => ({ result: scorecardOf(SCORECARD) }),
      'GET /dashboard/bank': () => BANK,
      'GET /dashboard/delivery': () => DELIVERY,
    });
    const bank = await panel('Bank');
    expect(await within(bank).findByText('Stale accounts')).toBeInTheDocument();
    expect(within(bank).getByText('1,800 ms')).toBeInTheDocument();
    const delivery = await panel('Delivery');
    expect(await within(delivery).findByText('97%')).toBeInTheDocument();
    expect(within(delivery).getByText('Paused: #4')).toBeInTheDocument();
  });

  it('colours each account status in the donut, working green and failing red, none left black, and statements neutral', async () => {
    renderHome({
      'GET /dashboard/scorecard': () => ({ result: scorecardOf(SCORECARD) }),
      // A status no account has is no slice.
      'GET /dashboard/bank': () => ({
        ...BANK,
        accounts_by_status: [...BANK.accounts_by_status, { status: 3, count: 0 }],
      }),
      'GET /dashboard/delivery': () => DELIVERY,
    });
    const donut = await within(await panel('Bank')).findByRole('listbox', { name: 'Donut chart with 2 slices' });
    /** A slice's fill as [r, g, b]; a slice without one is drawn black. */
    const rgbOf = (name: string) => {
      const fill = (within(donut).getByRole('option', { name }) as unknown as SVGElement).style.fill;
      const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(fill);
      const rgb = /^rgb\((\d+), (\d+), (\d+)\)$/.exec(fill);
      const parts = hex ? hex.slice(1).map((h) => Number.parseInt(h, 16)) : rgb?.slice(1).map(Number);
      expect(parts, `${name}: fill "${fill}"`).toBeDefined();
      return parts as number[];
    };
    const [er, eg, eb] = rgbOf('Enable, 3.');
    expect(eg).toBeGreaterThan(Math.max(er, eb));
    const [wr, wg, wb] = rgbOf('Wrong, 1.');
    expect(wr).toBeGreaterThan(Math.max(wg, wb));
    expect(within(donut).getAllByRole('option')).toHaveLength(2);
    // Statements are not failures: their bars are not drawn in an alarm's red.
    const bar = within(await panel('Bank')).getByRole('option', { name: '11-27 10:00. 12.' });
    const [br, , bb] = (/^#(..)(..)(..)$/.exec(bar.getAttribute('fill') ?? '') ?? [])
      .slice(1)
      .map((h) => Number.parseInt(h, 16));
    expect(bb).toBeGreaterThan(br);
  });

  it('opens Timings on a site with timed passes, and says so for a site whose checks all failed', async () => {
    const timed = (site: number) =>
      site === 1
        ? [{ date: '2026-11-27', process: 1, runs: 10, p50_ms: 1200, p95_ms: 2400 }]
        : [{ date: '2026-11-27', process: 1, runs: 4, p50_ms: null, p95_ms: null }];
    const { api } = renderHome({
      // By site name, the failing site comes first; its checks never passed, so nothing of it is timed.
      'GET /dashboard/scorecard': () => ({
        result: scorecardOf([
          row({
            site_id: 2,
            site_name: 'Aardvark Agent',
            passed: 0,
            failed: 10,
            pass_rate: 0,
            p50_ms: null,
            p95_ms: null,
          }),
          row({}),
        ]),
      }),
      'GET /dashboard/timings': (call) => ({ result: timed(Number(call.params.get('site_id'))) }),
      'GET /dashboard/bank': () => BANK,
      'GET /dashboard/delivery': () => DELIVERY,
    });
    const timings = await panel('Timings');
    await vi.waitFor(() => expect(api.callsTo('GET', '/dashboard/timings')[0]?.params.get('site_id')).toBe('1'));
    expect(within(timings).getByRole('combobox', { name: 'Site' })).toHaveTextContent('Lucky 4D');
    expect(within(timings).queryByText('No timed passes in this period yet')).toBeNull();

    await userEvent.click(within(timings).getByRole('combobox', { name: 'Site' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Aardvark Agent' }));
    expect(await within(timings).findByText('No timed passes in this period yet')).toBeInTheDocument();
  });

  it("says how old a kept answer is: the time its figures were read, from the answer's age", async () => {
    const before = Date.now();
    renderHome({
      'GET /dashboard/scorecard': () => ({ result: scorecardOf(SCORECARD) }),
      'GET /dashboard/bank': () => jsonResponse(ok(BANK), 200, { age: '90' }),
      'GET /dashboard/delivery': () => DELIVERY,
    });
    const bank = await panel('Bank');
    const caption = await within(bank).findByText(/^as of \d\d:\d\d:\d\d$/);
    // Read 90 s before it arrived, which was between the render and now (a slow machine may take seconds).
    const readAt: string[] = [];
    for (let at = before - 91_000; at <= Date.now() - 89_000; at += 1000)
      readAt.push(`as of ${formatDateTime(at).split(' ')[1]}`);
    expect(readAt).toContain(caption.textContent);
    // An answer without an age (the stub sends none) has no caption.
    expect(within(await panel('Delivery')).queryByText(/^as of /)).toBeNull();
  });

  it('draws the history again when the site names arrive after it, without an error', async () => {
    const errors = vi.spyOn(console, 'error');
    let sendNames: () => void = () => {};
    const namesLater = new Promise<void>((resolve) => {
      sendNames = resolve;
    });
    const today = new Date().toISOString().slice(0, 10);
    renderHome({
      'GET /dashboard/heatmap': () => ({
        result: {
          dates: [today],
          sites: [{ site_id: 2, runs: [4], failed: [3], flaky: [0], degraded: [0] }],
        },
      }),
      'GET /dashboard/scorecard': async () => {
        await namesLater;
        return { result: scorecardOf(SCORECARD) };
      },
      'GET /dashboard/bank': () => BANK,
      'GET /dashboard/delivery': () => DELIVERY,
    });
    const history = await panel('History');
    // First drawn with the site's id for its row, then with its name.
    expect(await within(history).findByText('#2')).toBeInTheDocument();
    sendNames();
    expect(await within(history).findByText('Mega Agent')).toBeInTheDocument();
    expect(errors.mock.calls.map((c) => String(c[0]))).not.toContainEqual(expect.stringContaining('TypeError'));
    errors.mockRestore();
  });

  it('says when a panel has nothing yet and when it could not load, each on its own', async () => {
    renderHome({
      'GET /dashboard/scorecard': () => ({ result: scorecardOf([]) }),
      'GET /dashboard/bank': () => jsonResponse({ code: 5000, msg: 'Server error, try later.', request_id: 'r' }, 500),
      // No delivery route at all (the bank monitor serves it): a 404 is that panel's error only.
    });
    expect(await within(await panel('Health')).findByText('No checks in this period yet')).toBeInTheDocument();
    expect(await within(await panel('History')).findByText('No checks in 90 days yet')).toBeInTheDocument();
    expect(await within(await panel('Next runs')).findByText('No rule runs in the next 24 hours')).toBeInTheDocument();
    expect(await within(await panel('Bank')).findByText('Could not load this panel.')).toBeInTheDocument();
    expect(await within(await panel('Delivery')).findByText('Could not load this panel.')).toBeInTheDocument();
  });

  describe('Next runs under maintenance', () => {
    const zone = 'Asia/Yangon';
    const HOUR = 3_600_000;
    /** A rule slot `hours` from now, on the zone's wall clock. */
    const cell = (hours: number, name: string): CalendarCell => {
      const clock = wallClock(Date.now() + hours * HOUR, zone);
      const pad = (n: number) => String(n).padStart(2, '0');
      return {
        day: clock.day as CalendarCell['day'],
        time: `${pad(clock.hour)}:${pad(clock.minute)}`,
        weekStamp: weekStampAt(Date.now() + hours * HOUR, zone),
        rules: [{ id: hours, name, site_cnt: 2 }],
        site_cnt: 2,
        crowd: false,
        waves: 1,
        queued: 0,
      };
    };
    /** A band of the given kind around the slot 2 h from now. */
    const band = (window_id: number, name: string, kind: 'once' | 'weekly') => {
      const covered = wallClock(Date.now() + 2 * HOUR, zone);
      const minute = covered.hour * 60 + covered.minute;
      return {
        window_id,
        name,
        mode: 'pause',
        kind,
        sites: 'all',
        day: covered.day,
        start: Math.max(0, minute - 30),
        end: Math.min(24 * 60, minute + 30),
      };
    };
    const nextRuns = async (weekStart: number) => {
      renderHome({
        'GET /dashboard/scorecard': () => ({ result: scorecardOf([]) }),
        'GET /auto-check/calendar': () => ({
          time_zone: zone,
          concurrency: 4,
          cells: [cell(2, 'Covered rule'), cell(6, 'Free rule')],
          week_start: weekStart,
          maintenance: [band(5, 'Deploy', 'weekly'), band(6, 'Hotfix', 'once')],
        }),
      });
      return (await within(await panel('Next runs')).findAllByRole('listitem')).map((li) => li.textContent);
    };

    it('marks a next run that a window covers, and only that one', async () => {
      // The calendar's week is the slot's (an instant of it stands for its start): both windows cover it.
      const items = await nextRuns(Date.now() + 2 * HOUR);
      expect(items[0]).toMatch(/Covered rule.*Maintenance: Deploy.*Maintenance: Hotfix/);
      expect(items[1]).toContain('Free rule');
      expect(items[1]).not.toContain('Maintenance');
    });

    it('takes a one-off window for the calendar’s week alone, a weekly one for every week', async () => {
      // The calendar's week ended before the slot (it is past Sunday midnight): the one-off was of that week.
      const items = await nextRuns(Date.now() - 8 * 24 * HOUR);
      expect(items[0]).toContain('Maintenance: Deploy');
      expect(items[0]).not.toContain('Hotfix');
    });
  });

  it('follows the language switch', async () => {
    await i18n.changeLanguage('zh');
    renderHome({ 'GET /dashboard/scorecard': () => ({ result: scorecardOf(SCORECARD) }) });
    const health = await panel('健康状况');
    expect(await within(health).findByRole('tab', { name: '7 天' })).toBeInTheDocument();
    expect(await panel('即将运行')).toBeInTheDocument();
  });

  it('puts failing sites first on the wall screen', async () => {
    renderHome({ 'GET /dashboard/scorecard': () => ({ result: scorecardOf(SCORECARD) }) }, '/?tv=1');
    const health = await panel('Health');
    await within(health).findByRole('button', { name: 'Mega Agent · Login Account (D4)' });
    expect(
      within(health)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toEqual(['Mega Agent', 'Lucky 4D', 'Zen Agent']);
    expect(screen.getByText('Wall screen: refreshes every 30 s, failing sites first.')).toBeInTheDocument();
  });
});
