import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { buildRouteObjects } from '@/app/router';
import { type RouteDef, readyRoutes, routeByName } from '@/app/routes';
import { operator, renderRoutes, superUser } from '@/test/renderApp';
import { AppShell, LEFT_DRAWER_KEY } from './AppShell';

// Fluent inputs re-render on every keystroke; jsdom makes that slow on a 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

const Stub = () => <p>stub</p>;
const stubbed = ['superUsers', 'superTg', 'superConfig', 'sites', 'siteAccounts', 'reportDetail'];
const routeList: RouteDef[] = [
  ...readyRoutes.filter((r) => !stubbed.includes(r.name)),
  ...stubbed.map((name) => ({
    ...routeByName(name),
    ready: true,
    screen: Stub,
  })),
];

function renderShell(path: string, auth = operator) {
  return renderRoutes(buildRouteObjects(routeList, <AppShell routeList={routeList} />), path, auth);
}

describe('AppShell', () => {
  it('shows operators the main menu and no super menu', async () => {
    renderShell('/');
    const menu = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(within(menu).getByText('Home')).toBeInTheDocument();
    expect(within(menu).getByText('Site')).toBeInTheDocument();
    expect(within(menu).getByText('Help')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Super menu' })).not.toBeInTheDocument();
    expect(screen.queryByText('User management')).not.toBeInTheDocument();
  });

  it('shows super users the super menu with its three entries', async () => {
    renderShell('/', superUser);
    const menu = await screen.findByRole('navigation', { name: 'Super menu' });
    expect(within(menu).getByText('User management')).toBeInTheDocument();
    expect(within(menu).getByText('TG notification')).toBeInTheDocument();
    expect(within(menu).getByText('Config')).toBeInTheDocument();
  });

  it('lists both Message screens: Notification and NotificationBank', async () => {
    renderShell('/');
    const menu = await screen.findByRole('navigation', { name: 'Main menu' });
    const user = userEvent.setup({ delay: null });
    await user.click(within(menu).getByText('Message'));
    expect(await within(menu).findByText('Notification')).toBeInTheDocument();
    expect(within(menu).getByText('NotificationBank')).toBeInTheDocument();
  });

  it("draws a report's print view alone, without menus or tabs, and its page inside the shell", async () => {
    const { unmount } = renderShell('/reports/7?print=1');
    expect(await screen.findByText('stub')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument();
    unmount();
    renderShell('/reports/7');
    expect(await screen.findByText('stub')).toBeInTheDocument();
    const menu = await screen.findByRole('navigation', { name: 'Main menu' });
    await userEvent.setup({ delay: null }).click(within(menu).getByText('Message'));
    expect(await within(menu).findByRole('link', { name: 'Reports' })).toHaveAttribute('href', '/reports');
  });

  it('lists the built Auto Check screens under their group: Rules and Auto Logs', async () => {
    const user = userEvent.setup({ delay: null });
    renderShell('/');
    const menu = await screen.findByRole('navigation', { name: 'Main menu' });
    await user.click(within(menu).getByText('Auto Check'));
    expect(await within(menu).findByText('Rules')).toBeInTheDocument();
    expect(within(menu).getByText('Auto Logs')).toBeInTheDocument();
  });

  it('lists the bank screens under Bank Monitor', async () => {
    const user = userEvent.setup({ delay: null });
    renderShell('/');
    const menu = await screen.findByRole('navigation', { name: 'Main menu' });
    await user.click(within(menu).getByText('Bank Monitor'));
    for (const label of ['Account', 'SubAccount', 'Logs Statement', 'Logs Balance Stat']) {
      expect(within(menu).getAllByText(label).length).toBeGreaterThan(0);
    }
  });

  it('opens a tab per visited page, highlights the current one and closes it back to the previous', async () => {
    const user = userEvent.setup({ delay: null });
    const { router } = renderShell('/help');
    const tabs = await screen.findByLabelText('Opened pages');
    expect(await within(tabs).findByRole('button', { name: 'Help' })).toHaveAttribute('aria-current', 'page');
    await user.click(within(tabs).getByRole('button', { name: 'Home' }));
    expect(router.state.location.pathname).toBe('/');
    expect(within(tabs).getByRole('button', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    await user.click(within(tabs).getByRole('button', { name: 'Help' }));
    await user.click(within(tabs).getByRole('button', { name: /Close tab/ }));
    expect(router.state.location.pathname).toBe('/');
    expect(within(tabs).queryByRole('button', { name: 'Help' })).not.toBeInTheDocument();
  });

  it('remembers a collapsed menu as the icon-only rail', async () => {
    const user = userEvent.setup({ delay: null });
    renderShell('/');
    await user.click(await screen.findByRole('button', { name: 'Toggle menu' }));
    expect(localStorage.getItem(LEFT_DRAWER_KEY)).toBe('false');
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Site' })).toBeInTheDocument();
  });
});
