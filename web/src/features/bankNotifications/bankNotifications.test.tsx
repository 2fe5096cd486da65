import type { BankNotification, BankNotificationHistory } from '@shared/schemas/bank';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderTable } from '@/components/table/testTable';
import { findToast, jsonResponse } from '@/test/renderApp';
import { stubApi } from '@/test/stubApi';
import { bankNotificationsResource } from './bankNotificationsResource';
import { historyResource } from './historyResource';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.unstubAllGlobals());

const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);

const note = (id: number, over: Partial<BankNotification> = {}): BankNotification => ({
  id,
  business_id: 100 + id,
  account_id: 3,
  sub_account_id: 9,
  category: 1,
  account: { bank_name: 1, user: 'kbz-ops' },
  sub: { no: '0011223344' },
  context: {
    kind: 'statement',
    bank: 1,
    account: '0011223344',
    sender: 'U Aung',
    remark: 'rent',
    send_date: '2026-01-05',
    send_time: '',
    amount: '1200.50',
    inflow: true,
  },
  status_tg: 4,
  pushed_tg_at: null,
  status_webhook: 9,
  pushed_webhook_at: null,
  created_at: T0 + id,
  ...over,
});

const attempt = (id: number, over: Partial<BankNotificationHistory> = {}): BankNotificationHistory => ({
  id,
  notification_id: 7,
  channel: 1,
  callback_url: 'https://receiver.example/hook',
  params: { method: 'POST', headers: { 'x-api-key': 'ab…yz' } },
  content: { bank: 1, type: 1 },
  code: 500,
  resp: 'upstream down',
  remark: `attempt ${id} of 4, will retry`,
  created_at: T0 + id * 1000,
  ...over,
});

const list = <T,>(rows: T[]) => ({ result: rows, total_count: rows.length, page_size: 20, page: 1 });

async function rowOf(table: HTMLElement, text: string): Promise<HTMLElement> {
  return (await within(table).findByText(text)).closest('tr') as HTMLElement;
}

describe('Notifications Bank', () => {
  it('shows the spec’s columns with the account, sub-account, category, context and both channel statuses', async () => {
    stubApi({
      'GET /notifications-bank': () =>
        list([note(7), note(8, { status_webhook: 3, status_tg: 1, pushed_tg_at: T0, category: 2, context: balance })]),
    });
    renderTable(bankNotificationsResource);
    const table = await screen.findByRole('table', { name: 'Notifications Bank' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent ?? '');
    for (const label of [
      'ID',
      'Business ID',
      'Bank',
      'Account',
      'Sub Account',
      'Category',
      'Context',
      'TG Status',
      'TG Pushed At',
      'Webhook Status',
      'Webhook Pushed At',
      'Created At',
    ]) {
      expect(
        headers.some((h) => h.includes(label)),
        label,
      ).toBe(true);
    }

    const statement = await rowOf(table, '+1,200.50 · U Aung · rent · 2026-01-05');
    expect(within(statement).getByText('107')).toBeInTheDocument();
    expect(within(statement).getByText('KBZ')).toBeInTheDocument();
    expect(within(statement).getByText('kbz-ops')).toBeInTheDocument();
    expect(within(statement).getByText('0011223344')).toBeInTheDocument();
    expect(within(statement).getByText('Statement')).toBeInTheDocument();
    expect(within(statement).getByText('NO Target')).toBeInTheDocument();
    expect(within(statement).getByText('Failed')).toBeInTheDocument();

    const balanceRow = await rowOf(table, '1,000.00 → 900.00 · Not reconciled, difference -50.00');
    expect(within(balanceRow).getByText('Balance')).toBeInTheDocument();
    expect(within(balanceRow).getByText('Channel Closed')).toBeInTheDocument();
    expect(within(balanceRow).getByText('Success')).toBeInTheDocument();
  });

  it('Detail opens the wide "Notification Details" dialog listing that notification’s attempts', async () => {
    const api = stubApi({
      'GET /notifications-bank': () => list([note(7)]),
      'GET /notifications-bank/history': ({ params }) =>
        params.get('notification_id') === '=-7'
          ? list([
              attempt(1),
              attempt(2, { code: 200, resp: 'ok', remark: 'attempt 2 of 4' }),
              attempt(3, { channel: 2, callback_url: null, code: null, resp: null, remark: 'NO Target: no bank chat' }),
            ])
          : list([]),
    });
    const { user } = renderTable(bankNotificationsResource);
    const table = await screen.findByRole('table', { name: 'Notifications Bank' });
    const row = await rowOf(table, '107');
    await user.click(within(row).getByRole('button', { name: 'Detail' }));

    const dialog = await screen.findByRole('dialog', { name: /Notification Details/ });
    const attempts = await within(dialog).findByRole('table', { name: 'Push History' });
    expect(await within(attempts).findByText('attempt 1 of 4, will retry')).toBeInTheDocument();
    expect(within(attempts).getByText('upstream down')).toBeInTheDocument();
    expect(within(attempts).getByText('attempt 2 of 4')).toBeInTheDocument();
    expect(within(attempts).getByText('NO Target: no bank chat')).toBeInTheDocument();
    expect(within(attempts).getAllByText('WebHook')).toHaveLength(2);
    expect(within(attempts).getByText('TG')).toBeInTheDocument();
    // Oldest first: the rows read as the story of the delivery.
    const remarks = within(attempts)
      .getAllByText(/attempt \d of 4|NO Target:/)
      .map((el) => el.textContent);
    expect(remarks).toEqual(['attempt 1 of 4, will retry', 'attempt 2 of 4', 'NO Target: no bank chat']);
    expect(
      api.callsTo('GET', '/notifications-bank/history').every((c) => c.params.get('notification_id') === '=-7'),
    ).toBe(true);
  });

  it('Replay on a row re-sends it, tips success and reloads the row’s status', async () => {
    let rows = [note(7)];
    const api = stubApi({
      'GET /notifications-bank': () => list(rows),
      'POST /notifications-bank/replay': () => {
        rows = [note(7, { status_webhook: 1, pushed_webhook_at: T0 + 5000 })];
        return { queued: [7], skipped: [] };
      },
    });
    const { user } = renderTable(bankNotificationsResource);
    const table = await screen.findByRole('table', { name: 'Notifications Bank' });
    const row = await rowOf(table, '107');
    await user.click(within(row).getByRole('button', { name: 'Replay' }));
    expect(await findToast('Replay success.')).toBeInTheDocument();
    expect(await findToast('1 notification(s) sent again.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/notifications-bank/replay')[0].body).toEqual({ ids: [7] });
    await waitFor(() => expect(within(table).getByText('Success')).toBeInTheDocument());
  });

  it('names the notifications the server would not replay, and tips a failure with its reason', async () => {
    let fail = false;
    stubApi({
      'GET /notifications-bank': () => list([note(7, { status_webhook: 1 })]),
      'POST /notifications-bank/replay': () =>
        fail
          ? jsonResponse({ code: 4000, msg: 'Give ids, or failed: true', request_id: 'r' }, 400)
          : { queued: [], skipped: [{ id: 7, reason: 'Already delivered to the webhook' }] },
    });
    const { user } = renderTable(bankNotificationsResource);
    const table = await screen.findByRole('table', { name: 'Notifications Bank' });
    const row = await rowOf(table, '107');
    await user.click(within(row).getByRole('button', { name: 'Replay' }));
    expect(await findToast('1 notification(s) not replayed.')).toBeInTheDocument();
    expect(await findToast('#7: Already delivered to the webhook')).toBeInTheDocument();
    expect(screen.queryByText('Replay success.')).not.toBeInTheDocument();

    fail = true;
    await user.click(within(row).getByRole('button', { name: 'Replay' }));
    expect(await findToast('Replay failed.')).toBeInTheDocument();
    expect(await findToast('Give ids, or failed: true')).toBeInTheDocument();
  });

  it('Replay Failed asks the server for every Failed notification', async () => {
    const api = stubApi({
      'GET /notifications-bank': () => list([note(7)]),
      'POST /notifications-bank/replay': () => ({ queued: [7, 8], skipped: [] }),
    });
    const { user } = renderTable(bankNotificationsResource);
    await screen.findByRole('table', { name: 'Notifications Bank' });
    await user.click(await screen.findByRole('button', { name: 'Replay Failed' }));
    expect(await findToast('2 notification(s) sent again.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/notifications-bank/replay')[0].body).toEqual({ failed: true });
  });
});

describe('Notifications Bank History', () => {
  it('lists every attempt with channel, callback URL, params, content, code, response and remark', async () => {
    stubApi({ 'GET /notifications-bank/history': () => list([attempt(1)]) });
    renderTable(historyResource);
    const table = await screen.findByRole('table', { name: 'Notifications Bank History' });
    const row = await rowOf(table, 'attempt 1 of 4, will retry');
    expect(within(row).getByText('WebHook')).toBeInTheDocument();
    expect(within(row).getByText('https://receiver.example/hook')).toBeInTheDocument();
    expect(within(row).getByText('{"method":"POST","headers":{"x-api-key":"ab…yz"}}')).toBeInTheDocument();
    expect(within(row).getByText('{"bank":1,"type":1}')).toBeInTheDocument();
    expect(within(row).getByText('500')).toBeInTheDocument();
    expect(within(row).getByText('upstream down')).toBeInTheDocument();
  });
});

const balance: BankNotification['context'] = {
  kind: 'balance',
  bank: 1,
  account: '0011223344',
  pre_bal: '1000',
  cur_bal: '900',
  amount: '-100',
  reconciled: false,
  difference: '-50',
};
