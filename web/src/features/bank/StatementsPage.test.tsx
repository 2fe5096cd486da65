import { statementListFields } from '@shared/schemas/bank';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '@/test/renderApp';
import { stubApi } from '@/test/stubApi';
import { statementDate } from './format';
import StatementsPage from './StatementsPage';
import { listOf, makeStatement } from './testRows';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.unstubAllGlobals());

describe('Bank Statement table', () => {
  it('shows the date only for KBZ and date and time for AYA', async () => {
    stubApi({
      'GET /bank/statements': listOf(
        [
          // A KBZ row that somehow carries a time still shows its day only.
          makeStatement({ id: 1, bank_name: 1, human_date: '2026-01-05 13:45:10', name: 'Daw Su' }),
          makeStatement({ id: 2, bank_name: 2, human_date: '2026-01-06 09:15:30', name: '', inflow: false }),
        ],
        statementListFields,
      ),
    });
    render(
      <Providers>
        <MemoryRouter>
          <StatementsPage />
        </MemoryRouter>
      </Providers>,
    );
    const table = await screen.findByRole('table', { name: 'Bank Statement' });
    const kbz = (await within(table).findByText('Daw Su')).closest('tr') as HTMLElement;
    expect(within(kbz).getByText('2026-01-05')).toBeInTheDocument();
    expect(kbz).not.toHaveTextContent('13:45');
    expect(within(kbz).getByText('+25,000.00')).toBeInTheDocument();
    const aya = within(table).getByText('2026-01-06 09:15:30').closest('tr') as HTMLElement;
    expect(within(aya).getByText('Outflow')).toBeInTheDocument();
    expect(within(aya).getByText('-25,000.00')).toBeInTheDocument();
  });

  it('exports the same date the row shows', () => {
    expect(statementDate({ bank_name: 1, human_date: '2026-01-05 13:45:10' })).toBe('2026-01-05');
    expect(statementDate({ bank_name: 2, human_date: '2026-01-05 13:45:10' })).toBe('2026-01-05 13:45:10');
    expect(statementDate({ bank_name: 2, human_date: '' })).toBe('/');
  });
});
