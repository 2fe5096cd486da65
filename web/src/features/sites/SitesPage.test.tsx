import { siteListFields } from '@shared/schemas/sites';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeListServer } from '@/components/table/testTable';
import { Providers } from '@/test/renderApp';
import SitesPage from './SitesPage';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.unstubAllGlobals());

const site = (id: number, name: string) => ({
  id,
  name,
  url: `https://${name}.test`,
  available_account_cnt: id,
  enable: true,
  created_at: 1_700_000_000_000 + id,
});

describe('Sites page', () => {
  it('keeps BatchCheck disabled until sites are selected, then shows the count and opens the batch dialog', async () => {
    fakeListServer('/sites', [site(1, 'alpha'), site(2, 'bravo'), site(3, 'charlie')], siteListFields);
    const user = userEvent.setup({ delay: null });
    render(
      <Providers>
        <MemoryRouter>
          <SitesPage />
        </MemoryRouter>
      </Providers>,
    );
    const table = await screen.findByRole('table', { name: 'Sites' });
    await within(table).findByText('alpha');
    const batch = screen.getByRole('button', { name: 'BatchCheck' });
    expect(batch).toHaveAttribute('aria-disabled', 'true');
    await user.click(batch);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    const rows = within(table).getAllByRole('checkbox', { name: 'Select row' });
    await user.click(rows[0]);
    await user.click(rows[2]);
    const enabled = screen.getByRole('button', { name: 'BatchCheck (2)' });
    expect(enabled).not.toHaveAttribute('aria-disabled', 'true');

    await user.click(enabled);
    // hidden: Fluent's focus trap can leave a just-opened dialog aria-hidden for a moment in jsdom.
    const dialog = await screen.findByRole('dialog', { hidden: true });
    expect(dialog).toHaveTextContent('Choose checkpoint for multi sites (2)');
    await user.click(within(dialog).getByRole('button', { name: 'Sites (2)', hidden: true }));
    expect(within(dialog).getByText('alpha')).toBeInTheDocument();
    expect(within(dialog).getByText('charlie')).toBeInTheDocument();
    expect(within(dialog).queryByText('bravo')).not.toBeInTheDocument();
  });
});
