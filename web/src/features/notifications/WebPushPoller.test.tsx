import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Notification } from '@shared/schemas/notifications';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setNavigator } from '@/app/navigation';
import { jsonResponse, ok, Providers } from '@/test/renderApp';
import { WebPushPoller } from './WebPushPoller';

vi.setConfig({ testTimeout: 30_000 });

const note = (id: number, created_at: number): Notification => ({
  id,
  from_user: null,
  category: 2,
  title: `Site ${id}: check passed`,
  caption: `Task ${id} of operation 1`,
  content: '',
  status: 1,
  read_at: null,
  link: '/operations/1',
  created_at,
});

const fetchMock = vi.fn<typeof fetch>();
let unread: Notification[] = [];
beforeEach(() => {
  unread = [];
  vi.stubGlobal('fetch', fetchMock);
  // The server's rule: unread notifications created after `since`.
  fetchMock.mockImplementation(async (u) => {
    const since = Number(new URL(String(u), 'http://x').searchParams.get('since'));
    return jsonResponse(ok(unread.filter((n) => n.created_at > since)));
  });
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  setNavigator(null);
});

const polls = () => fetchMock.mock.calls.length;
/** Toast titles; Fluent also announces each toast in a live region, which is not a second toast. */
const toastsTitled = (title: string) => screen.queryAllByText(title).filter((el) => el.closest('.fui-Toast') !== null);

describe('Web push', () => {
  it('shows a new notification once in the push toast and opens it from there', async () => {
    const navigate = vi.fn();
    setNavigator(navigate);
    render(<WebPushPoller intervalMs={50} />, { wrapper: Providers });
    await waitFor(() => expect(polls()).toBeGreaterThan(0));
    unread.push(note(31, Date.now() + 1));

    await waitFor(() => expect(toastsTitled('Site 31: check passed')).toHaveLength(1));
    const before = polls();
    await waitFor(() => expect(polls()).toBeGreaterThan(before + 3));
    expect(toastsTitled('Site 31: check passed')).toHaveLength(1);
    expect(screen.getAllByText('Task 31 of operation 1').length).toBeGreaterThan(0);

    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(navigate).toHaveBeenCalledWith('/notifications/31', undefined);
  });

  it('asks only for notifications newer than the last one it showed', async () => {
    const first = Date.now() + 1;
    unread.push(note(41, first));
    render(<WebPushPoller intervalMs={50} />, { wrapper: Providers });
    await waitFor(() => expect(toastsTitled('Site 41: check passed')).toHaveLength(1));
    unread.push(note(42, first + 5));
    await waitFor(() => expect(toastsTitled('Site 42: check passed')).toHaveLength(1));
    expect(toastsTitled('Site 41: check passed')).toHaveLength(1);
    const sinceAsked = () =>
      fetchMock.mock.calls.map(([u]) => new URL(String(u), 'http://x')).map((u) => `${u.pathname}?${u.searchParams}`);
    await waitFor(() => expect(sinceAsked()).toContain(`/api/v1/notifications/web?since=${first + 5}`));
  });

  it('sums up a burst of new notifications in one toast that opens the list', async () => {
    const navigate = vi.fn();
    setNavigator(navigate);
    const at = Date.now() + 1;
    unread.push(...[51, 52, 53, 54, 55].map((id, i) => note(id, at + i)));
    render(<WebPushPoller intervalMs={50} />, { wrapper: Providers });

    await waitFor(() => expect(toastsTitled('5 new notifications')).toHaveLength(1));
    expect(toastsTitled('Site 51: check passed')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(navigate).toHaveBeenCalledWith('/notifications/notifications', undefined);
  });

  it('keeps at most two push toasts open: a third, from a later poll, closes the oldest', async () => {
    const at = Date.now() + 1;
    render(<WebPushPoller intervalMs={50} />, { wrapper: Providers });
    for (const [i, id] of [61, 62, 63].entries()) {
      unread.push(note(id, at + i));
      await waitFor(() => expect(toastsTitled(`Site ${id}: check passed`)).toHaveLength(1));
    }
    await waitFor(() => expect(toastsTitled('Site 61: check passed')).toHaveLength(0));
    expect(toastsTitled('Site 62: check passed')).toHaveLength(1);
    expect(toastsTitled('Site 63: check passed')).toHaveLength(1);
  });
});
