import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildRouteObjects } from '@/app/router';
import { findToast, operator, renderRoutes } from '@/test/renderApp';
import { makeOperation, makeTask, serverError, stubApi } from '@/test/stubApi';

vi.setConfig({ testTimeout: 30_000 });
afterEach(() => vi.unstubAllGlobals());

const openDetail = (id = 12) => renderRoutes(buildRouteObjects(undefined, <Outlet />), `/operations/${id}`, operator);

describe('Operation detail', () => {
  it('shows the summary, the progress and the tasks of the operation', async () => {
    stubApi({
      'GET /operations/12/tasks': () => ({
        operation: makeOperation({
          remark: 'nightly run',
          start_at: 1_000_000,
          end_at: 1_042_000,
          status: 100,
          task_running: 0,
          task_done: 2,
        }),
        tasks: [
          makeTask({ id: 31 }),
          makeTask({ id: 32, site: { id: 4, name: 'Golden Draw', url: 'http://g.local' } }),
        ],
      }),
    });
    openDetail();
    expect(await screen.findByRole('heading', { name: 'Operation #12' })).toBeInTheDocument();
    expect(await screen.findByText('nightly run')).toBeInTheDocument();
    expect(screen.getByText('42 s')).toBeInTheDocument();
    expect(screen.getByText('Completed 2 of 2')).toBeInTheDocument();
    const tasks = screen.getByRole('table', { name: 'Tasks' });
    expect(within(tasks).getByText('Golden Draw')).toBeInTheDocument();
    expect(within(tasks).getAllByRole('row')).toHaveLength(3);
    // A finished operation offers neither chip.
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
  });

  it('pauses a running operation with action 1, says so, and reloads it', async () => {
    let status: 2 | 3 = 2;
    const api = stubApi({
      'GET /operations/12/tasks': () => ({ operation: makeOperation({ status }), tasks: [makeTask()] }),
      'POST /operations/12/action': () => {
        status = 3;
        return { operation: makeOperation({ status }), changed: 1 };
      },
    });
    openDetail();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Pause' }));
    expect(await findToast('Pause operation 12 success.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/operations/12/action').map((c) => c.body)).toEqual([{ action: 1 }]);
    // Reloaded: the paused operation now offers Resume.
    expect(await screen.findByRole('button', { name: 'Resume' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
  });

  it('resumes a paused operation with action 2 and says so', async () => {
    const api = stubApi({
      'GET /operations/12/tasks': () => ({ operation: makeOperation({ status: 3 }), tasks: [makeTask({ status: 3 })] }),
      'POST /operations/12/action': () => ({ operation: makeOperation({ status: 2 }), changed: 1 }),
    });
    openDetail();
    const user = userEvent.setup();
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Resume' }));
    expect(await findToast('Resume operation 12 success.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/operations/12/action').map((c) => c.body)).toEqual([{ action: 2 }]);
    await waitFor(() => expect(api.callsTo('GET', '/operations/12/tasks').length).toBeGreaterThanOrEqual(2));
  });

  it('tells the user when pausing fails and still reloads the operation', async () => {
    const api = stubApi({
      'GET /operations/12/tasks': () => ({ operation: makeOperation({ status: 2 }), tasks: [] }),
      'POST /operations/12/action': () => serverError(),
    });
    openDetail();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Pause' }));
    expect(await findToast('Pause operation 12 failed.')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('GET', '/operations/12/tasks').length).toBeGreaterThanOrEqual(2));
  });

  it('says the operation could not be loaded when the call fails', async () => {
    stubApi({
      'GET /operations/99/tasks': () =>
        new Response(JSON.stringify({ code: 4041, msg: 'Operation 99 does not exist', request_id: 'r' }), {
          status: 404,
          headers: { 'content-type': 'application/json' },
        }),
    });
    openDetail(99);
    expect(await screen.findByRole('alert')).toHaveTextContent('Get operation failed.');
  });

  it('opens a task onto its subtasks grouped by process', async () => {
    stubApi({
      'GET /operations/12/tasks': () => ({
        operation: makeOperation({ status: 100, task_running: 0 }),
        tasks: [makeTask({ id: 31 }), makeTask({ id: 32 })],
      }),
      'GET /check/tasks/32': () => ({
        ...makeTask({ id: 32 }),
        subtasks: [
          {
            process: 2,
            task_failed: 1,
            task_running: 0,
            task_total: 1,
            tasks: [
              {
                id: 501,
                task_id: 32,
                operation_id: 12,
                site: { name: 'Lucky 4D' },
                mode: 3,
                process: 2,
                status: 99,
                start_at: 1_000,
                end_at: 4_500,
                msg: 'Draw closed',
                created_at: 1_000,
              },
            ],
          },
        ],
      }),
    });
    openDetail();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Show subtasks of task 32' }));
    const group = await screen.findByRole('region', { name: 'Place Bets' });
    expect(within(group).getByText('Draw closed')).toBeInTheDocument();
    expect(within(group).getByText('TT')).toBeInTheDocument();
    expect(within(group).getByText('Failed 1')).toBeInTheDocument();
    expect(within(group).getByText('3.5 s')).toBeInTheDocument();
  });
});
