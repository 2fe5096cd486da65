import { operationListFields } from '@shared/schemas/checks';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildRouteObjects } from '@/app/router';
import { fakeListServer } from '@/components/table/testTable';
import { operator, renderRoutes } from '@/test/renderApp';
import { makeOperation } from '@/test/stubApi';

vi.setConfig({ testTimeout: 30_000 });
afterEach(() => vi.unstubAllGlobals());

const rows = [
  makeOperation({ id: 7, name: 1, site: { id: 3, name: 'Lucky 4D' }, operator: { nickname: 'Olivia' }, created_at: 3 }),
  makeOperation({ id: 8, name: 2, site: null, operator: null, status: 99, created_at: 2, task_failed: 1 }),
  makeOperation({ id: 9, name: 3, site: null, operator: null, status: 100, created_at: 1 }),
];

const rowOf = (id: number) => {
  const cell = within(screen.getByRole('table', { name: 'Operations' })).getByText(String(id));
  return cell.closest('tr') as HTMLElement;
};

describe('Operations list', () => {
  it('shows the site only for single-site operations, MultiSites otherwise, and SYSTEM without an operator', async () => {
    fakeListServer('/operations', rows, operationListFields);
    renderRoutes(buildRouteObjects(undefined, <Outlet />), '/operations', operator);
    expect(await screen.findByRole('heading', { name: 'Operations' })).toBeInTheDocument();
    await screen.findByText('Lucky 4D');

    const single = rowOf(7);
    expect(within(single).getByText('SingleSite')).toBeInTheDocument();
    expect(within(single).getByText('Olivia')).toBeInTheDocument();

    const multi = rowOf(8);
    // Name and site column both say MultiSites for a batch check.
    expect(within(multi).getAllByText('MultiSites')).toHaveLength(2);
    expect(within(multi).getByText('SYSTEM')).toBeInTheDocument();
    expect(within(multi).getByText('Failed')).toBeInTheDocument();

    const auto = rowOf(9);
    expect(within(auto).getByText('AutoCheck')).toBeInTheDocument();
    expect(within(auto).getByText('MultiSites')).toBeInTheDocument();
  });

  it('opens the operation detail from the Detail button of a row', async () => {
    fakeListServer('/operations', rows, operationListFields);
    const { router } = renderRoutes(buildRouteObjects(undefined, <Outlet />), '/operations', operator);
    await screen.findByText('Lucky 4D');
    await userEvent.setup().click(within(rowOf(8)).getByRole('button', { name: 'Detail' }));
    expect(router.state.location.pathname).toBe('/operations/8');
  });
});
