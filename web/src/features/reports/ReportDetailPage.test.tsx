import type { Report } from '@shared/schemas/reports';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '@/i18n';
import { findToast, jsonResponse, renderRoutes } from '@/test/renderApp';
import { stubApi } from '@/test/stubApi';
import ReportDetailPage from './ReportDetailPage';
import { PDF_POLL_MS } from './reportsApi';
import { emptyReport, GENERATED, report } from './testReports';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const viewer = { jwt: 'token-viewer', name: 'Vera', s: 'viewer' } as const;

function renderReport(data: Report | (() => Report | Response), path = '/reports/7', auth?: typeof viewer) {
  const api = stubApi({
    'GET /reports/7': () => (typeof data === 'function' ? data() : data),
    'GET /reports/7/csv': () =>
      new Response('site,process,runs\r\nLucky 4D,Login Account,20\r\n', {
        status: 200,
        headers: {
          'content-type': 'text/csv',
          'content-disposition': 'attachment; filename="patrol-week-2026-11-30.csv"',
        },
      }),
    'GET /reports/7/pdf': () => jsonResponse({ code: 40422, msg: 'Report not found.', request_id: 'r' }, 404),
  });
  const view = renderRoutes(
    [
      { path: '/reports/:reportID', element: <ReportDetailPage /> },
      { path: '/incidents/:incidentID', element: <p>Incident page</p> },
    ],
    path,
    auth,
  );
  return { api, ...view };
}

/** The rows of the table named `name`, header row left out, as their cells' texts. */
const rowsOf = (name: string) =>
  within(screen.getByRole('table', { name }))
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    );

describe('a report page', () => {
  it('shows the period, each site and process, incidents with their times, bank accounts and deliveries', async () => {
    renderReport(report());
    expect(await screen.findByRole('heading', { name: 'Weekly report · 2026-11-30 – 2026-12-06' })).toBeInTheDocument();
    expect(screen.getByText('Time zone: Asia/Yangon')).toBeInTheDocument();
    expect(screen.getByText('Telegram -100123')).toBeInTheDocument();
    expect(rowsOf('Sites and processes')).toEqual([
      ['Lucky 4D', 'All processes', '40', '10', '4', '75%', '5%', '1,200', '4,100', '1 h 30 min'],
      ['', 'Login Account', '20', '2', '0', '90%', '10%', '900', '2,500', ''],
      ['', 'Place Bets', '20', '8', '4', '60%', '0%', '1,500', '4,100', ''],
    ]);
    expect(screen.getByText('Maintenance time is shown and left out of success %.')).toBeInTheDocument();
    expect(rowsOf('Maintenance windows')).toEqual([['Friday upgrade', 'Pause', 'Lucky 4D', '1 h 30 min']]);
    // Times in the report's zone (Yangon, UTC+6:30), not the browser's.
    expect(rowsOf('Incidents')).toEqual([
      ['#41', 'Lucky 4D', 'Place Bets (D4)', 'Resolved', '2026-12-01 09:30:00', '4', '12 min', '2 h 05 min'],
      ['#42', 'KBZ · kbz-ops', '/', 'Open', '2026-12-04 15:30:00', '2', '/', '/'],
    ]);
    const incidents = screen.getByRole('region', { name: 'Incidents' });
    expect(within(incidents).getByText('Time to resolve, worst').nextSibling).toHaveTextContent('2 h 05 min');
    expect(within(incidents).getByText('Unresolved').nextSibling).toHaveTextContent('1');
    expect(rowsOf('Bank accounts')).toEqual([
      ['KBZ', 'kbz-ops', '2016', '12', '98.5%', '35 min', '140', '1'],
      ['Total', '', '2016', '12', '98.5%', '35 min', '140', '1'],
    ]);
    const deliveries = screen.getByRole('region', { name: 'Deliveries' });
    expect(within(deliveries).getByText('Webhook success %').nextSibling).toHaveTextContent('99.3%');
    expect(within(deliveries).getByText('Paused endpoints').nextSibling).toHaveTextContent('kbz-ops');
    expect(within(deliveries).getByText('Telegram failures').nextSibling).toHaveTextContent('3');
    // The heatmap of the period's days, the dashboard's own chart.
    // The heatmap draws its axis after it has rendered once (a chart's effect): waited for, with a margin.
    expect(
      await within(screen.getByRole('region', { name: 'Days' })).findByText('Lucky 4D', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    // On screen, no print marker: only the print view tells the printer it is ready.
    expect(document.body.dataset.reportReady).toBeUndefined();

    await userEvent.click(screen.getByRole('link', { name: '#41' }));
    expect(await screen.findByText('Incident page')).toBeInTheDocument();
  });

  it('downloads the CSV with the session, under the name the server gives', async () => {
    const saved: string[] = [];
    let blob: Blob | undefined;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blob = b as Blob;
      return 'blob:report';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { api } = renderReport(report(), '/reports/7', viewer);
    await userEvent.click(await screen.findByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toBe('patrol-week-2026-11-30.csv');
    // The file's bytes as the server sent them (jsdom's Blob has no text(): a FileReader reads it).
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blob as Blob);
    });
    expect(text).toContain('Lucky 4D,Login Account,20');
    expect(api.callsTo('GET', '/reports/7/csv')).toHaveLength(1);
    const sent = new Headers((fetch as unknown as ReturnType<typeof vi.fn>).mock.calls.at(-1)?.[1]?.headers);
    expect(sent.get('authorization')).toBe('Bearer token-viewer');

    // A refused download says so, and saves nothing.
    await userEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(await findToast('Download PDF failed')).toBeInTheDocument();
    expect(saved).toHaveLength(1);
  });

  it('offers the PDF once it is printed, reading the report again until then', async () => {
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
    });
    let current = report({ pdf_at: null });
    const { api } = renderReport(() => current);
    expect(await screen.findByRole('button', { name: 'Printing PDF…' })).toBeDisabled();
    current = report({ pdf_at: GENERATED + 120_000 });
    await vi.advanceTimersByTimeAsync(PDF_POLL_MS);
    expect(await screen.findByRole('button', { name: 'Download PDF' })).toBeEnabled();
    // Printed: the report is not read again.
    const reads = api.callsTo('GET', '/reports/7').length;
    await vi.advanceTimersByTimeAsync(3 * PDF_POLL_MS);
    expect(api.callsTo('GET', '/reports/7')).toHaveLength(reads);
  });

  it('says so when nothing ran in the period', async () => {
    renderReport(emptyReport());
    await screen.findByRole('heading', { name: 'Weekly report · 2026-11-30 – 2026-12-06' });
    expect(screen.getAllByText('No checks ran in this period')).toHaveLength(2);
    expect(screen.getByText('No maintenance in this period')).toBeInTheDocument();
    expect(screen.getByText('No incidents in this period')).toBeInTheDocument();
    expect(screen.getByText('No bank accounts polled in this period')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says so when the report cannot be loaded', async () => {
    renderReport(() => jsonResponse({ code: 40422, msg: 'Report not found.', request_id: 'r' }, 404));
    expect(await screen.findByRole('alert')).toHaveTextContent('Fetch report failed.');
  });
});

describe('the print view', () => {
  it("draws the report alone in the report's language, for A4, and marks the page ready", async () => {
    const { unmount } = renderReport(report({ language: 'zh' }), '/reports/7?print=1');
    expect(await screen.findByRole('heading', { name: '周报 · 2026-11-30 – 2026-12-06' })).toBeInTheDocument();
    expect(screen.getByText('时区：Asia/Yangon')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: '站点与检测点' })).toBeInTheDocument();
    await waitFor(() => expect(document.body.dataset.reportReady).toBe('1'));
    // Paper: nothing to press, no links, A4 pages with repeated table headers.
    expect(screen.queryAllByRole('button').filter((b) => /CSV|PDF|打印/.test(b.textContent ?? ''))).toEqual([]);
    expect(screen.queryByRole('link', { name: '#41' })).toBeNull();
    const css = [...document.querySelectorAll('style')].map((s) => s.textContent).join('\n');
    expect(css).toContain('size: A4');
    expect(css).toContain('thead { display: table-header-group; }');

    unmount();
    // The console's own language comes back, and the marker goes with the page.
    await waitFor(() => expect(i18n.language).toBe('en'));
    expect(document.body.dataset.reportReady).toBeUndefined();
  });

  it('marks the page failed when the report cannot be loaded, so the printer stops waiting', async () => {
    const { unmount } = renderReport(
      () => jsonResponse({ code: 40422, msg: 'Report not found.', request_id: 'r' }, 404),
      '/reports/7?print=1',
    );
    await waitFor(() => expect(document.body.dataset.reportReady).toBe('failed'));
    unmount();
  });
});
