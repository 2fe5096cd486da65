import { act, screen } from '@testing-library/react';
import type { Notification } from '@shared/schemas/notifications';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildRouteObjects } from '@/app/router';
import { findToast, jsonResponse, ok, operator, renderRoutes } from '@/test/renderApp';

vi.setConfig({ testTimeout: 30_000 });

const note = (id: number, over: Partial<Notification> = {}): Notification => ({
  id,
  from_user: null,
  category: 1,
  title: `Sandbox Logs: Place Bets (D4) Done #${id}`,
  caption: `Subtask ${id} of operation 2`,
  content: '<p>Site <b>Sandbox Logs</b>: Done</p>',
  status: 2,
  read_at: 1_700_000_100_000,
  link: '/operations/2',
  created_at: 1_700_000_000_000,
  ...over,
});

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

const calls = () =>
  fetchMock.mock.calls.map(([u, init]) => `${init?.method ?? 'GET'} ${new URL(String(u), 'http://x').pathname}`);

describe('Notification detail', () => {
  it('marks the notification read on opening and shows its fields, SYSTEM for no sender', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(ok(note(4))));
    renderRoutes(buildRouteObjects(), '/notifications/4', operator);
    expect(await screen.findByText('Subtask 4 of operation 2')).toBeInTheDocument();
    expect(screen.getByText('Sandbox Logs: Place Bets (D4) Done #4')).toBeInTheDocument();
    expect(screen.getByText('SYSTEM')).toBeInTheDocument();
    expect(screen.getByText('Read')).toBeInTheDocument();
    expect(calls()).toContain('PUT /api/v1/notifications/4');
  });

  it('renders the body as HTML without scripts or event handlers', async () => {
    const payload =
      '<p>Site <b>Evil</b></p><script>window.__pwned = 1</script><img src="x" onerror="window.__pwned = 2"><a href="javascript:alert(1)">link</a>';
    fetchMock.mockImplementation(async () => jsonResponse(ok(note(5, { content: payload }))));
    renderRoutes(buildRouteObjects(), '/notifications/5', operator);
    const body = await screen.findByTestId('notification-content');
    expect(body.querySelector('b')).toHaveTextContent('Evil');
    expect(body.querySelector('script')).toBeNull();
    expect(body.querySelector('img')?.getAttribute('onerror')).toBeNull();
    expect(body.querySelector('a')?.getAttribute('href') ?? '').not.toMatch(/^javascript:/);
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('loads and marks read the other notification when the id in the address changes', async () => {
    fetchMock.mockImplementation(async (u) => {
      const id = Number(new URL(String(u), 'http://x').pathname.split('/').pop());
      return jsonResponse(ok(note(id)));
    });
    const { router } = renderRoutes(buildRouteObjects(), '/notifications/6', operator);
    expect(await screen.findByText('Subtask 6 of operation 2')).toBeInTheDocument();
    await act(() => router.navigate('/notifications/7'));
    expect(await screen.findByText('Subtask 7 of operation 2')).toBeInTheDocument();
    expect(calls()).toEqual(expect.arrayContaining(['PUT /api/v1/notifications/6', 'PUT /api/v1/notifications/7']));
  });

  it("tells 'Get Notification failed' when it cannot be loaded", async () => {
    fetchMock.mockImplementation(async () =>
      jsonResponse({ code: 4040, msg: 'Notification 9 does not exist', request_id: 'r' }, 404),
    );
    renderRoutes(buildRouteObjects(), '/notifications/9', operator);
    expect(await findToast('Get Notification failed')).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Get Notification failed');
  });
});
