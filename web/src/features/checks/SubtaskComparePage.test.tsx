import type { AttemptEvidence, Subtask, SubtaskComparison } from '@shared/schemas/checks';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { operator, renderRoutes } from '@/test/renderApp';
import { stubApi } from '@/test/stubApi';
import SubtaskComparePage from './SubtaskComparePage';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.unstubAllGlobals());

const sub = (over: Partial<Subtask>): Subtask => ({
  id: 9,
  task_id: 3,
  operation_id: 2,
  site: { id: 4, name: 'Lucky 4D' },
  process: 1,
  mode: 1,
  status: 100,
  msg: '',
  start_at: 1_000,
  end_at: 5_000,
  attempts: 2,
  flaky: true,
  degraded: false,
  duration_ms: 4_000,
  created_at: 1_000,
  ...over,
});

const attempt = (over: Partial<AttemptEvidence>): AttemptEvidence => ({
  attempt: 2,
  success: true,
  msg: 'Login success',
  failure_kind: null,
  duration_ms: 4_000,
  created_at: 1,
  raw_log_id: 1,
  steps: [
    { name: 'open /login', ms: 300, ok: true },
    { name: 'POST /api/login', ms: 2_500, ok: true },
  ],
  video: {
    id: 1,
    process: 1,
    size: 1,
    raw_log_id: 1,
    subtask_id: 9,
    content_type: 'video/mp4',
    duration_ms: 3000,
    created_at: 1,
    url: '/v/this.mp4',
  },
  screenshot_url: null,
  console_errors: [],
  failed_requests: [],
  ...over,
});

function renderCompare(answer: SubtaskComparison) {
  stubApi({ 'GET /check/subtasks/9/compare': () => answer });
  renderRoutes(
    [{ path: '/tasks/subtasks/:subtaskID/compare', element: <SubtaskComparePage /> }],
    '/tasks/subtasks/9/compare',
    operator,
  );
}

describe('Compare with last pass', () => {
  it('puts the two runs side by side, step by step with both timings and the difference', async () => {
    renderCompare({
      subtask: sub({}),
      attempt: attempt({}),
      last_pass: {
        subtask: sub({ id: 5, flaky: false, attempts: 1 }),
        attempt: attempt({
          attempt: 1,
          steps: [
            { name: 'open /login', ms: 320, ok: true },
            { name: 'POST /api/login', ms: 100, ok: true },
          ],
          video: { ...attempt({}).video!, url: '/v/last.mp4' },
        }),
      },
    });
    const steps = await screen.findByRole('table', { name: 'Steps' }, { timeout: 15_000 });
    const login = within(steps).getByRole('row', { name: /POST \/api\/login/ });
    expect(login).toHaveTextContent('2,500 ms');
    expect(login).toHaveTextContent('100 ms');
    expect(login).toHaveTextContent('+2,400 ms');
    expect(document.querySelectorAll('video')).toHaveLength(2);
    expect(screen.getByText('Flaky')).toBeInTheDocument();
  });

  it('says so when there is no earlier pass', async () => {
    renderCompare({ subtask: sub({}), attempt: attempt({}), last_pass: null });
    expect(
      await screen.findByText(
        'No earlier pass of this site, process and mode to compare with.',
        {},
        { timeout: 15_000 },
      ),
    ).toBeInTheDocument();
    expect(document.querySelectorAll('video')).toHaveLength(1);
  });
});
