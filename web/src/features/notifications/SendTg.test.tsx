import type { Notification } from '@shared/schemas/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderTable } from '@/components/table/testTable';
import { findToast, jsonResponse } from '@/test/renderApp';
import { stubApi } from '@/test/stubApi';
import { notificationsResource } from './notificationsResource';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.unstubAllGlobals());

const note = (id: number, over: Partial<Notification> = {}): Notification => ({
  id,
  from_user: null,
  category: 3,
  title: `Operation ${id} finished with failures`,
  caption: '1 site(s) checked',
  content: '<p>x</p>',
  status: 1,
  read_at: null,
  link: `/operations/${id}`,
  created_at: 1_700_000_000_000 + id,
  status_tg: 0,
  pushed_tg_at: null,
  ...over,
});

const list = (rows: Notification[]) => ({ result: rows, total_count: rows.length, page_size: 20, page: 1 });

describe('SendTG in the Notifications list', () => {
  it('sends the row to the chat channel (channel 2), tips success and shows the new TG status', async () => {
    let rows = [note(4)];
    const api = stubApi({
      'GET /notifications': () => list(rows),
      'POST /notifications/4/notify': () => {
        rows = [note(4, { status_tg: 1, pushed_tg_at: 1_700_000_100_000 })];
        return rows[0];
      },
    });
    const { user } = renderTable(notificationsResource);
    const table = await screen.findByRole('table', { name: 'Notifications' });
    const row = (await within(table).findByText('Operation 4 finished with failures')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Pending')).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'SendTG' }));
    expect(await findToast('Send TG Notification Success.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/notifications/4/notify')[0].body).toEqual({ channel: 2 });
    await waitFor(() => expect(within(table).getByText('Success')).toBeInTheDocument());
  });

  it('on failure tips "Send TG Notification Failed." with Telegram’s reason', async () => {
    stubApi({
      'GET /notifications': () => list([note(5)]),
      'POST /notifications/5/notify': () =>
        jsonResponse({ code: 5021, msg: '403 Forbidden: bot was blocked by the user', request_id: 'r' }, 502),
    });
    const { user } = renderTable(notificationsResource);
    const table = await screen.findByRole('table', { name: 'Notifications' });
    const row = (await within(table).findByText('Operation 5 finished with failures')).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'SendTG' }));
    expect(await findToast('Send TG Notification Failed.')).toBeInTheDocument();
    expect(await findToast('403 Forbidden: bot was blocked by the user')).toBeInTheDocument();
  });
});
