import type { Subtask } from '@shared/schemas/checks';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTask, serverError, stubApi } from '@/test/stubApi';
import { findToast, renderRoutes } from '@/test/renderApp';
import { TaskDetailDialog } from './TaskDetailDialog';

vi.setConfig({ testTimeout: 30_000 });
afterEach(() => vi.unstubAllGlobals());

const sub = (over: Partial<Subtask>): Subtask => ({
  id: 1,
  task_id: 31,
  operation_id: 12,
  site: { id: 3, name: 'Lucky 4D' },
  mode: 1,
  process: 1,
  status: 100,
  start_at: 1_000,
  end_at: 2_000,
  msg: '',
  attempts: 1,
  flaky: false,
  degraded: false,
  duration_ms: 1_000,
  created_at: 1_000,
  ...over,
});

const open = () => renderRoutes([{ path: '/', element: <TaskDetailDialog taskId={31} onClose={() => {}} /> }], '/');

describe('Task detail dialog', () => {
  it('shows the whole task and its subtasks grouped by process, each group with its counts', async () => {
    stubApi({
      'GET /check/tasks/31': () => ({
        ...makeTask({ id: 31, remark: 'checked at night' }),
        subtasks: [
          { process: 1, task_failed: 0, task_running: 0, task_total: 1, tasks: [sub({ id: 1, msg: 'Login success' })] },
          {
            process: 2,
            task_failed: 1,
            task_running: 1,
            task_total: 2,
            tasks: [
              sub({ id: 2, process: 2, status: 99, msg: 'Draw closed' }),
              sub({ id: 3, process: 2, mode: 3, status: 2, end_at: null }),
            ],
          },
        ],
      }),
    });
    open();
    expect(await screen.findByText('checked at night')).toBeInTheDocument();
    const login = screen.getByRole('region', { name: 'Login Account' });
    expect(within(login).getByText('Login success')).toBeInTheDocument();
    expect(within(login).getByText('Total 1')).toBeInTheDocument();
    const bets = screen.getByRole('region', { name: 'Place Bets' });
    expect(within(bets).getByText('Failed 1')).toBeInTheDocument();
    expect(within(bets).getByText('Running 1')).toBeInTheDocument();
    expect(within(bets).getByText('Total 2')).toBeInTheDocument();
    expect(within(bets).getAllByRole('button', { name: 'Logs' })).toHaveLength(2);
  });

  it('says Fetch task failed. when the task cannot be loaded', async () => {
    stubApi({ 'GET /check/tasks/31': () => serverError() });
    open();
    expect(await findToast('Fetch task failed.')).toBeInTheDocument();
  });
});
