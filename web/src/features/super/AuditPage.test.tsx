import { type AuditEntry, auditListFields } from '@shared/schemas/audit';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeListServer, renderTable } from '@/components/table/testTable';
import { auditResource } from './auditResource';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.unstubAllGlobals());

const row = (id: number, actor: [number, string], action: string, outcome: 'allowed' | 'refused'): AuditEntry => ({
  id,
  actor_id: actor[0],
  actor_name: actor[1],
  action,
  target: `sites#${id}`,
  target_type: 'sites',
  target_id: id,
  input: JSON.stringify({ name: `site ${id}` }),
  client_ip: '10.0.0.1',
  request_id: `req-${id}`,
  status: outcome === 'allowed' ? 200 : 400,
  outcome,
  at: 1_700_000_000_000 + id,
  created_at: 1_700_000_000_000 + id,
});

const rows = [
  row(1, [2, 'alice'], 'POST /sites', 'allowed'),
  row(2, [3, 'bob'], 'PUT /sites/:id', 'refused'),
  row(3, [2, 'alice'], 'PUT /sites/:id', 'allowed'),
];

describe('Audit log page', () => {
  it('lists the newest rows first and filters them by user', async () => {
    const server = fakeListServer('/super/audit', rows, auditListFields);
    const { user } = renderTable(auditResource);
    const table = await screen.findByRole('table', { name: 'Audit log' });
    await within(table).findByText('bob');
    expect(server.last().get('sort')).toBe(JSON.stringify({ created_at: 'desc' }));
    expect(within(table).getAllByText('alice')).toHaveLength(2);
    expect(within(table).getByText('Refused')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Filter User' }));
    await user.type(await screen.findByRole('textbox', { name: 'User' }), 'alice{Enter}');
    await waitFor(() => expect(server.last().get('actor_name')).toBe('alice'));
    await waitFor(() => expect(within(table).queryByText('bob')).not.toBeInTheDocument());
    expect(within(table).getAllByText('alice')).toHaveLength(2);
  });

  it('offers no way to add, edit or delete a row', async () => {
    fakeListServer('/super/audit', rows, auditListFields);
    renderTable(auditResource);
    const table = await screen.findByRole('table', { name: 'Audit log' });
    await within(table).findByText('bob');
    expect(screen.queryByRole('button', { name: /new|add|edit|delete/i })).not.toBeInTheDocument();
  });
});
