import { MemoryRouter } from 'react-router-dom';
import type { CheckResult, RawLog } from '@shared/schemas/checks';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serverError, stubApi } from '@/test/stubApi';
import { findToast, Providers } from '@/test/renderApp';
import { CheckResultsDialog } from './CheckResultsDialog';

vi.setConfig({ testTimeout: 30_000 });
afterEach(() => vi.unstubAllGlobals());

const subtask = { id: 501, process: 2 as const, mode: 1 as const, site: { name: 'Lucky 4D' } };

function rawLog(over: Partial<RawLog>): RawLog {
  return {
    id: 1,
    process: 2,
    business_id: 10,
    subtask_id: 501,
    success: true,
    remark: '',
    result: { bet_success: true },
    steps: [{ name: 'open bet page', ms: 1234, ok: true }],
    console_errors: [],
    attempt: 1,
    failure_kind: null,
    failed_requests: [],
    duration_ms: 1234,
    video: null,
    screenshot_url: null,
    created_at: 1,
    ...over,
  };
}

const open = () =>
  render(
    <Providers>
      {/* The dialog links to the compare view: it always opens inside the app's router. */}
      <MemoryRouter>
        <CheckResultsDialog subtask={subtask} onClose={() => {}} />
      </MemoryRouter>
    </Providers>,
  );

describe('Check results dialog', () => {
  it('says No Check Logs when the subtask has no check yet', async () => {
    stubApi({ 'GET /check/subtasks/501/check-results': () => [] });
    open();
    expect(await screen.findByText('No Check Logs')).toBeInTheDocument();
    expect(screen.queryByRole('tab')).toBeNull();
  });

  it('shows the failure tip and No Check Logs when the checks cannot be fetched', async () => {
    stubApi({ 'GET /check/subtasks/501/check-results': () => serverError() });
    open();
    expect(await findToast('Fetch related checks failed.')).toBeInTheDocument();
    expect(await screen.findByText('No Check Logs')).toBeInTheDocument();
  });

  it('shows a tab per check, the latest first opened, each with its raw log and video', async () => {
    const results: CheckResult[] = [
      {
        id: 2,
        subtask_id: 501,
        created_at: Date.UTC(2026, 0, 5, 9, 0, 0),
        raw_log: rawLog({
          id: 72,
          success: true,
          remark: 'second try',
          video: {
            id: 9,
            process: 2,
            size: 2048,
            url: 'http://videos.local/9.webm',
            content_type: 'video/webm',
            duration_ms: 4000,
            raw_log_id: 72,
            subtask_id: 501,
            created_at: 1,
          },
        }),
      },
      {
        id: 1,
        subtask_id: 501,
        created_at: Date.UTC(2026, 0, 5, 8, 0, 0),
        raw_log: rawLog({ id: 71, success: false, remark: 'first try' }),
      },
    ];
    stubApi({ 'GET /check/subtasks/501/check-results': () => results });
    open();
    const tabs = await screen.findAllByRole('tab');
    expect(tabs).toHaveLength(2);
    // The dialog is named by its title and subtask alone; the compare link sits with the checks.
    expect(
      screen.getByRole('dialog', { name: /^Check Logs\s*· SubTask #501 · Place Bets · D4 · Lucky 4D$/ }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Compare with last pass' })).toHaveAttribute(
      'href',
      '/tasks/subtasks/501/compare',
    );
    // Ordered by created_at; the latest is selected.
    expect(tabs[1]).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('second try')).toBeInTheDocument();
    expect(screen.getByTestId('video-player')).toHaveAttribute('src', 'http://videos.local/9.webm');

    await userEvent.setup().click(tabs[0]!);
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByText('first try')).toBeInTheDocument();
    expect(within(panel).getByText('No video record')).toBeInTheDocument();
  });
});
