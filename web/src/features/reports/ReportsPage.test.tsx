import { applyListQuery } from '@shared/applyListQuery';
import { parseListQuery } from '@shared/listQuery';
import { type ReportRow, reportListFields } from '@shared/schemas/reports';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setDisplayTimeZone } from '@/app/format';
import { readPath } from '@/components/table/col';
import { renderRoutes } from '@/test/renderApp';
import { stubApi } from '@/test/stubApi';
import ReportsPage from './ReportsPage';
import { GENERATED, reportRow } from './testReports';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const viewer = { jwt: 'token-viewer', name: 'Vera', s: 'viewer' } as const;

/** GET /reports over `rows` with the real list protocol, and POST /reports answering a new id. */
function renderReports(rows: ReportRow[], auth?: typeof viewer) {
  const api = stubApi({
    'GET /reports': (call) => applyListQuery(rows, parseListQuery(call.params, reportListFields), readPath),
    'POST /reports': () => ({ id: 99 }),
  });
  renderRoutes(
    [
      { path: '/reports', element: <ReportsPage /> },
      { path: '/reports/:reportID', element: <p>Report page</p> },
    ],
    '/reports',
    auth,
  );
  return api;
}

/** The open dialog whose text holds `text` (a role query over the whole page is slow in jsdom). */
const openDialog = (text: string) =>
  waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('[role="alertdialog"]')].find((d) =>
      d.textContent?.includes(text),
    );
    if (!found) throw new Error(`no dialog with ${text}`);
    return found;
  });

const ROWS = [
  reportRow(),
  reportRow({
    id: 8,
    period: 'day',
    start: '2026-12-06',
    end: '2026-12-06',
    generated_at: GENERATED + 3_600_000,
    generated_by: { id: 2, nickname: 'Olivia' },
    sent_to: [],
  }),
];

describe('Message → Reports', () => {
  it('lists the reports newest first: period, dates, who made them and where they went', async () => {
    renderReports(ROWS);
    const table = await screen.findByRole('table', { name: 'Reports' });
    const daily = (await within(table).findByText('2026-12-06')).closest('tr') as HTMLElement;
    expect(within(daily).getByText('Daily')).toBeInTheDocument();
    expect(within(daily).getByText('Olivia')).toBeInTheDocument();
    expect(within(daily).getByText('Not sent')).toBeInTheDocument();
    const weekly = within(table).getByText('2026-11-30 – 2026-12-06').closest('tr') as HTMLElement;
    expect(within(weekly).getByText('Weekly')).toBeInTheDocument();
    expect(within(weekly).getByText('Schedule')).toBeInTheDocument();
    expect(within(weekly).getByText('Telegram -100123')).toBeInTheDocument();
    const rows = within(table).getAllByRole('row');
    expect(rows.indexOf(daily)).toBeLessThan(rows.indexOf(weekly));

    await userEvent.click(within(weekly).getByRole('link', { name: '2026-11-30 – 2026-12-06' }));
    expect(await screen.findByText('Report page')).toBeInTheDocument();
  });

  it('says so when there is no report yet', async () => {
    renderReports([]);
    await screen.findByRole('table', { name: 'Reports' });
    expect(await screen.findByText('No result')).toBeInTheDocument();
  });

  it('shows a viewer the list without Generate now', async () => {
    renderReports(ROWS, viewer);
    const table = await screen.findByRole('table', { name: 'Reports' });
    await within(table).findByText('2026-12-06');
    expect(screen.queryByRole('button', { name: 'Generate now' })).toBeNull();
  });

  it('generates a past week from its Monday, refusing another day before sending, then opens the report', async () => {
    // Wednesday 9 December 2026 in the configured zone: last week ran from Monday 30 November.
    vi.useFakeTimers({ now: Date.UTC(2026, 11, 9, 6), toFake: ['Date'] });
    setDisplayTimeZone('Asia/Yangon');
    const api = renderReports(ROWS);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Generate now' }));
    const dialog = await openDialog('Generate report');
    expect(within(dialog).getByText('A week starts on Monday: pick a Monday')).toBeInTheDocument();
    const start = within(dialog).getByRole('combobox', { name: 'Start', hidden: true });
    expect(start).toHaveValue('2026-11-30');

    // Typed over the whole date (clearing it first empties the picker, which swallows the next key).
    await user.type(start, '2026-12-01', { initialSelectionStart: 0, initialSelectionEnd: 10 });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm', hidden: true }));
    expect(await within(dialog).findByText('A week starts on a Monday: give that Monday as start')).toBeInTheDocument();
    // This week has not ended yet.
    await user.type(start, '2026-12-07', { initialSelectionStart: 0, initialSelectionEnd: 10 });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm', hidden: true }));
    expect(
      await within(dialog).findByText('Only a period that has ended can be reported: choose an earlier start'),
    ).toBeInTheDocument();
    // A month asks for its 1st: the picker says so, and the start moves to last month's.
    await user.click(within(dialog).getByRole('radio', { name: 'Monthly', hidden: true }));
    expect(within(dialog).getByText('A month starts on the 1st: pick the 1st')).toBeInTheDocument();
    expect(start).toHaveValue('2026-11-01');
    await user.click(within(dialog).getByRole('radio', { name: 'Weekly', hidden: true }));
    expect(start).toHaveValue('2026-11-30');
    expect(api.callsTo('POST', '/reports')).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Confirm', hidden: true }));
    await waitFor(() => expect(api.callsTo('POST', '/reports')).toHaveLength(1));
    expect(api.callsTo('POST', '/reports')[0].body).toEqual({ period: 'week', start: '2026-11-30' });
    expect(await screen.findByText('Report page')).toBeInTheDocument();
  });
});
