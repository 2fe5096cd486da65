import type { Incident } from '@shared/schemas/incidents';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useLocation } from 'react-router-dom';
import { operator, renderRoutes } from '@/test/renderApp';
import { FamilyCell } from './FamilyCell';

vi.setConfig({ testTimeout: 60_000 });

const row = (over: Partial<Incident>): Incident =>
  ({ id: 7, cause: null, parent_id: null, children: 0, ...over }) as Incident;

function Where() {
  const location = useLocation();
  return <p>At {`${location.pathname}${location.search}`}</p>;
}

describe('a parent and its children in the incidents list (issue 45)', () => {
  it("folds a parent's children behind its count: the link opens the list scoped to them", async () => {
    renderRoutes(
      [
        { path: '/incidents/7', element: <FamilyCell incident={row({ cause: 'same_check', children: 3 })} /> },
        { path: '/incidents', element: <Where /> },
      ],
      '/incidents/7',
      operator,
    );
    await userEvent.click(await screen.findByRole('link', { name: '3 children · Same check' }));
    expect(await screen.findByText('At /incidents?parent_id=7')).toBeInTheDocument();
  });

  it('links a child to its parent, and shows nothing for an incident alone', async () => {
    renderRoutes(
      [
        { path: '/incidents/8', element: <FamilyCell incident={row({ id: 8, parent_id: 7 })} /> },
        { path: '/incidents/7', element: <Where /> },
      ],
      '/incidents/8',
      operator,
    );
    await userEvent.click(await screen.findByRole('link', { name: 'Parent #7' }));
    expect(await screen.findByText('At /incidents/7')).toBeInTheDocument();
  });
});
