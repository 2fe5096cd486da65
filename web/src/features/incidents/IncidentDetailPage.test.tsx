import type { IncidentDetail } from '@shared/schemas/incidents';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findToast, operator, renderRoutes } from '@/test/renderApp';
import { stubApi } from '@/test/stubApi';
import IncidentDetailPage from './IncidentDetailPage';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.unstubAllGlobals());

const OPENED = Date.UTC(2026, 10, 27, 2);

function incident(over: Partial<IncidentDetail> = {}): IncidentDetail {
  return {
    id: 7,
    created_at: OPENED,
    updated_at: OPENED,
    site_id: 3,
    site_name: 'Lucky 4D',
    process: 1,
    mode: 1,
    status: 1,
    opened_at: OPENED,
    resolved_at: null,
    failures: 2,
    last_failure_at: OPENED + 60_000,
    last_message: 'Login failed: Account is locked',
    acknowledged_by: null,
    snoozed_until: null,
    telegram: { chat_id: '-100123', message_id: 41 },
    timeline: [
      {
        id: 1,
        incident_id: 7,
        kind: 'failure',
        at: OPENED,
        subtask_id: 90,
        operation_id: 12,
        actor: null,
        via: null,
        note: 'Login failed: Account is locked',
        created_at: OPENED,
      },
      {
        id: 2,
        incident_id: 7,
        kind: 'rerun',
        at: OPENED + 30_000,
        subtask_id: null,
        operation_id: 13,
        actor: { id: 4, nickname: 'Olivia' },
        via: 'telegram',
        note: '',
        created_at: OPENED + 30_000,
      },
    ],
    ...over,
  } as IncidentDetail;
}

function renderDetail(detail: IncidentDetail, auth = operator) {
  let current = detail;
  const api = stubApi({
    'GET /incidents/7': () => current,
    'POST /incidents/7/action': (call) => {
      const body = call.body as { action: string; minutes?: number };
      if (body.action === 'snooze')
        current = { ...current, status: 3, snoozed_until: OPENED + (body.minutes ?? 0) * 60_000 };
      if (body.action === 'acknowledge')
        current = { ...current, status: 2, acknowledged_by: { id: 4, nickname: 'Olivia' } };
      return { incident: current, operation_id: null, maintenance_id: null };
    },
  });
  renderRoutes(
    [
      { path: '/incidents/:incidentID', element: <IncidentDetailPage /> },
      { path: '/operations/:operationID', element: <p>Operation page</p> },
    ],
    '/incidents/7',
    auth,
  );
  return api;
}

describe('Incident detail', () => {
  it('shows the incident, its timeline with who pressed what, and links each failure to its operation', async () => {
    renderDetail(incident());
    expect(await screen.findByRole('heading', { name: 'Incident 7' })).toBeInTheDocument();
    expect(screen.getByText('Lucky 4D · Login Account (D4)')).toBeInTheDocument();
    expect(screen.getByText('Message 41 in chat -100123')).toBeInTheDocument();
    const rows = within(screen.getByRole('table', { name: 'Timeline' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows[0]).toHaveTextContent('SYSTEM');
    expect(rows[1]).toHaveTextContent('Olivia · Telegram');
    await userEvent.click(within(rows[0]).getByRole('link', { name: 'Subtask 90' }));
    expect(await screen.findByText('Operation page')).toBeInTheDocument();
  });

  it('sends what an operator presses, and shows the incident as it became', async () => {
    const api = renderDetail(incident());
    await userEvent.click(await screen.findByRole('button', { name: 'Snooze 4 h' }));
    expect(await findToast('Snoozed.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/incidents/7/action').map((c) => c.body)).toEqual([{ action: 'snooze', minutes: 240 }]);
    expect(await screen.findByText('Snoozed')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Acknowledge' }));
    expect(await findToast('Acknowledged.')).toBeInTheDocument();
    // Acknowledged once: the button has nothing more to do.
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Acknowledge' })).toBeDisabled());
  });

  it('offers no action on a resolved incident', async () => {
    renderDetail(incident({ status: 4, resolved_at: OPENED + 120_000 }));
    await screen.findByRole('heading', { name: 'Incident 7' });
    for (const name of ['Acknowledge', 'Snooze 1 h', 'Snooze 4 h', 'Re-run', 'Start maintenance 1 h'])
      expect(screen.getByRole('button', { name })).toBeDisabled();
  });

  it("names a bank incident's bank, account and rule, and offers Poll now and Disable account instead of Re-run", async () => {
    const api = renderDetail(
      incident({
        kind: 'bank',
        site_id: null,
        site_name: null,
        process: null,
        mode: null,
        bank_account_id: 5,
        bank_name: 1,
        account_user: 'shop-kbz',
        rule_id: 9,
        rule_name: 'Floor',
        last_message: 'balance < 1000000 (balance 950,000)',
        timeline: [],
      }),
    );
    expect(await screen.findByText('KBZ · shop-kbz · Alert rule Floor')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Re-run' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Start maintenance 1 h' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Poll now' }));
    expect(await findToast('Polled.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Disable account' }));
    expect(await findToast('Account disabled.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/incidents/7/action').map((c) => c.body)).toEqual([
      { action: 'poll' },
      { action: 'disable' },
    ]);
  });

  it('shows a viewer the incident and its timeline without any action', async () => {
    const api = renderDetail(incident(), { jwt: 'token-viewer', name: 'Vera', s: 'viewer' });
    expect(await screen.findByRole('table', { name: 'Timeline' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Acknowledge' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Re-run' })).toBeNull();
    expect(api.callsTo('POST', '/incidents/7/action')).toEqual([]);
  });
});
