import type { AutoCheckRule, AutoLog } from '@shared/schemas/autoCheck';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findToast, operator, renderRoutes } from '@/test/renderApp';
import { makeOperation, serverError, stubApi } from '@/test/stubApi';
import AutoLogsPage from './AutoLogsPage';
import RulesPage from './RulesPage';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.unstubAllGlobals());

const morning: AutoCheckRule = {
  id: 5,
  name: 'Morning',
  sites: [1, 2],
  checkpoints: { points: [{ process: 1, modes: [1] }] },
  times: [{ day: 1, times: ['09:30'] }],
  enable: true,
  creator: null,
  created_at: 1_700_000_000_000,
  updated_at: 1_700_000_000_000,
  next_run: Date.UTC(2026, 10, 30, 3, 0),
};

const page = <T,>(rows: T[]) => ({ result: rows, total_count: rows.length, page: 1, page_size: 20 });

function renderRules(routes: Parameters<typeof stubApi>[0]) {
  const api = stubApi({ 'GET /auto-check/rules': () => page([morning]), ...routes });
  const view = renderRoutes(
    [
      { path: '/auto-checks/rules', element: <RulesPage /> },
      { path: '/auto-checks/rules/:ruleID', element: <p>Rule page</p> },
      { path: '/auto-checks/calendar', element: <p>Calendar page</p> },
      { path: '/auto-checks/new', element: <p>New rule page</p> },
    ],
    '/auto-checks/rules',
    operator,
  );
  return { ...view, api, user: userEvent.setup({ delay: null }) };
}

describe('Auto Check Rules', () => {
  it('deletes a rule after confirmation, with its success tip, as a soft delete', async () => {
    const { user, api } = renderRules({ 'PUT /auto-check/rules/5': () => ({ ...morning }) });
    const table = await screen.findByRole('table', { name: 'Auto Check Rules' });
    const row = (await within(table).findByText('Morning')).closest('tr') as HTMLElement;
    expect(row).toHaveTextContent('Mon 09:30');
    expect(row).toHaveTextContent('SYSTEM');

    await user.click(within(row).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { hidden: true });
    expect(dialog).toHaveTextContent('Confirm Delete Rule Morning?');
    await user.click(within(dialog).getByRole('button', { name: 'OK', hidden: true }));
    expect(await findToast('Delete rule Morning success.')).toBeInTheDocument();
    expect(api.callsTo('PUT', '/auto-check/rules/5')[0]?.body).toEqual({ delete: 1 });
  });

  it("shows the spec's failure tips for delete and check now", async () => {
    const { user, api } = renderRules({
      'PUT /auto-check/rules/5': serverError,
      'POST /auto-check/rules/5/check': serverError,
    });
    const table = await screen.findByRole('table', { name: 'Auto Check Rules' });
    const row = (await within(table).findByText('Morning')).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Delete' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { hidden: true })).getByRole('button', {
        name: 'OK',
        hidden: true,
      }),
    );
    expect(await findToast('Delete rule Morning failed.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog', { hidden: true })).toBeNull());

    await user.click(within(row).getByRole('button', { name: 'CheckNow' }));
    const ask = await screen.findByRole('alertdialog', { hidden: true });
    expect(ask).toHaveTextContent('This operation will detection those sites immediately, confirm to continue?');
    await user.click(within(ask).getByRole('button', { name: 'OK', hidden: true }));
    expect(await findToast('Check failed, please contact IT.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/auto-check/rules/5/check')).toHaveLength(1);
  });

  it('checks now and names the sites the run leaves out', async () => {
    const { user } = renderRules({
      'POST /auto-check/rules/5/check': () => ({
        operation: makeOperation({ id: 40, name: 3, rule_id: 5 }),
        skipped: [{ site_id: 2, name: 'bravo', reason: 'disabled' }],
      }),
    });
    const table = await screen.findByRole('table', { name: 'Auto Check Rules' });
    const row = (await within(table).findByText('Morning')).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'CheckNow' }));
    await user.click(
      within(await screen.findByRole('alertdialog', { hidden: true })).getByRole('button', {
        name: 'OK',
        hidden: true,
      }),
    );
    expect(await findToast('Check success, go operation menu to check.')).toBeInTheDocument();
    expect(await findToast('Skipped sites: bravo (Disabled)')).toBeInTheDocument();
  });

  it("lists the rule's sites with their state in the Show-sites dialog", async () => {
    const { user } = renderRules({
      'GET /auto-check/rules/5/items': () =>
        page([
          { id: 1, name: 'alpha', url: 'https://alpha.test', enable: true, deleted: false, available_account_cnt: 2 },
          { id: 2, name: 'bravo', url: null, enable: false, deleted: true, available_account_cnt: 0 },
        ]),
    });
    const table = await screen.findByRole('table', { name: 'Auto Check Rules' });
    const row = (await within(table).findByText('Morning')).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Show sites of Morning' }));
    const dialog = (await screen.findByText('Sites of rule Morning')).closest('[role="dialog"]') as HTMLElement;
    const alpha = (await within(dialog).findByText('alpha')).closest('tr') as HTMLElement;
    expect(alpha).toHaveTextContent('Checked');
    expect(within(dialog).getByText('bravo').closest('tr')).toHaveTextContent('Deleted');
  });

  it('toggles enable with the update call and opens the calendar, a new rule and a rule', async () => {
    const { user, api, router } = renderRules({ 'PUT /auto-check/rules/5': () => ({ ...morning, enable: false }) });
    const table = await screen.findByRole('table', { name: 'Auto Check Rules' });
    const row = (await within(table).findByText('Morning')).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('switch', { name: 'Enable' }));
    await waitFor(() => expect(api.callsTo('PUT', '/auto-check/rules/5')[0]?.body).toEqual({ enable: false }));

    await user.click(within(row).getByRole('button', { name: 'Detail' }));
    expect(await screen.findByText('Rule page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auto-checks/rules/5');
    void router.navigate('/auto-checks/rules');
    await user.click(await screen.findByRole('button', { name: 'Calendar' }));
    expect(await screen.findByText('Calendar page')).toBeInTheDocument();
    void router.navigate('/auto-checks/rules');
    await user.click(await screen.findByRole('button', { name: 'NewRule' }));
    expect(await screen.findByText('New rule page')).toBeInTheDocument();
  });
});

describe('Auto Check Logs', () => {
  const log: AutoLog = {
    id: 71,
    rule_id: 5,
    rule: { name: 'Morning' },
    week_stamp: 34_200,
    success: true,
    operation_id: 40,
    slot_at: 1_700_000_000_000,
    missed: false,
    skipped: [{ site_id: 9, name: null, reason: 'deleted' }],
    remark: '',
    created_at: 1_700_000_000_000,
  };

  it('shows the week stamp as weekday and time, links the operation, and opens the rule from Detail', async () => {
    stubApi({ 'GET /auto-check/rules/logs': () => page([log]) });
    const user = userEvent.setup({ delay: null });
    const { router } = renderRoutes(
      [
        { path: '/auto-checks/logs', element: <AutoLogsPage /> },
        { path: '/auto-checks/rules/:ruleID', element: <p>Rule page</p> },
        { path: '/operations/:operationID', element: <p>Operation page</p> },
      ],
      '/auto-checks/logs',
      operator,
    );
    const table = await screen.findByRole('table', { name: 'Auto Check Logs' });
    const row = (await within(table).findByText('Monday 09:30')).closest('tr') as HTMLElement;
    expect(row).toHaveTextContent('Morning');
    expect(row).toHaveTextContent('#9 (Deleted)');
    await user.click(within(row).getByRole('link', { name: 'Operation #40' }));
    expect(await screen.findByText('Operation page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/operations/40');

    void router.navigate('/auto-checks/logs');
    const again = await screen.findByRole('table', { name: 'Auto Check Logs' });
    const row2 = (await within(again).findByText('Monday 09:30')).closest('tr') as HTMLElement;
    await user.click(within(row2).getByRole('button', { name: 'Detail' }));
    expect(await screen.findByText('Rule page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auto-checks/rules/5');
  });

  it("says 'Fetch rule failed.' when the logs cannot be read", async () => {
    stubApi({ 'GET /auto-check/rules/logs': serverError });
    renderRoutes([{ path: '/l', element: <AutoLogsPage /> }], '/l', operator);
    expect(await findToast('Fetch rule failed.')).toBeInTheDocument();
  });
});
