import type { BankNotification, BankNotificationHistory } from '@shared/schemas/bank';
import { screen, waitFor, within } from '@testing-library/react';
import { formatDateTime } from '@/app/format';
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
  // The webhook failed (retries exhausted): not pushed, so Pending; the chat is not set up.
  status_tg: 0,
  pushed_tg_at: null,
  notify_tg: 4,
  status_webhook: 1,
  pushed_webhook_at: null,
  notify_webhook: 9,
  notify_status: 9,
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

/** The cell of `row` under the column whose header reads exactly `label`. */
function cellOf(table: HTMLElement, row: HTMLElement, label: string): HTMLElement {
  const headers = within(table).getAllByRole('columnheader');
  const at = headers.findIndex((h) => within(h).queryByText(label, { exact: true }));
  expect(at, label).toBeGreaterThanOrEqual(0);
  return within(row).getAllByRole('cell')[at] as HTMLElement;
}

/**
 * The open Details dialog. In jsdom Fluent's modal layer (tabster, which takes every node without
 * position: fixed for undisplayed, jsdom having no layout) can leave the open dialog aria-hidden, and
 * Testing Library gives an aria-hidden node no accessible name: so the dialog is found with
 * `hidden: true` and known by its title.
 */
async function detailsDialog() {
  const dialog = await screen.findByRole('dialog', { hidden: true });
  const title = document.getElementById(dialog.getAttribute('aria-labelledby') ?? '');
  expect(title).toHaveTextContent(/^Notification Details · #\d+$/);
  return dialog;
}

describe('Notifications Bank', () => {
  it('shows the spec’s columns, and per channel its push status, why it did not push and when it was pushed', async () => {
    stubApi({
      'GET /notifications-bank': () =>
        list([
          note(7),
          note(8, {
            status_webhook: 0,
            notify_webhook: 3,
            status_tg: 2,
            notify_tg: 1,
            pushed_tg_at: T0,
            notify_status: 1,
            category: 2,
            context: balance,
          }),
        ]),
    });
    renderTable(bankNotificationsResource);
    const table = await screen.findByRole('table', { name: 'Notifications Bank' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent ?? '');
    for (const label of ['ID', 'Account', 'Category', 'Context', 'Webhook', 'TG', 'Created At']) {
      expect(
        headers.some((h) => h.includes(label)),
        label,
      ).toBe(true);
    }
    // Stacked into those cells, and columns of their own to choose: not shown at first.
    for (const label of ['Business ID', 'Bank', 'Sub Account', 'Pushed At', 'Notify Status'])
      expect(
        headers.some((h) => h.includes(label)),
        label,
      ).toBe(false);

    const statement = await rowOf(table, '+1,200.50 · U Aung · rent · 2026-01-05');
    // The bank and login over the sub-account; the category over the statement's id.
    expect(cellOf(table, statement, 'Account')).toHaveTextContent(/^KBZ · kbz-ops\s*0011223344$/);
    expect(cellOf(table, statement, 'Category')).toHaveTextContent(/^Statement\s*#107$/);
    expect(cellOf(table, statement, 'Created At')).toHaveTextContent(
      new RegExp(`^${formatDateTime(T0 + 7).replace(' ', '\\s*')}$`),
    );
    // Retries exhausted: still to push (Pending), and why (Failed).
    expect(cellOf(table, statement, 'Webhook')).toHaveTextContent(/^Pending\s*Failed$/);
    // No bank chat: nothing to push there (NoNeed), because NO Target.
    expect(cellOf(table, statement, 'TG')).toHaveTextContent(/^NoNeed\s*NO Target$/);

    const balanceRow = await rowOf(table, '1,000.00 → 900.00 · Not reconciled, difference -50.00');
    expect(within(balanceRow).getByText('Balance')).toBeInTheDocument();
    expect(cellOf(table, balanceRow, 'Webhook')).toHaveTextContent(/^NoNeed\s*Channel Closed$/);
    // Pushed, with the time; its Success says nothing more.
    const tg = cellOf(table, balanceRow, 'TG');
    expect(within(tg).getByText('Pushed')).toBeInTheDocument();
    expect(within(tg).getByText(formatDateTime(T0))).toBeInTheDocument();
    expect(within(tg).queryByText('Success')).not.toBeInTheDocument();
  });

  it('Detail opens the wide "Notification Details" dialog: where each channel stands, and every attempt', async () => {
    const history = [
      attempt(1, { remark: 'HTTP 500; attempt 1 of 2, will retry' }),
      attempt(2, { resp: 'still down', remark: 'HTTP 500; attempt 2 of 2, retries exhausted' }),
      attempt(3, { channel: 2, callback_url: null, code: null, resp: null, remark: 'NO Target: no bank chat' }),
    ];
    const api = stubApi({
      'GET /notifications-bank': () => list([note(7)]),
      // As the server answers: scoped by notification (and channel), in the order asked, one page.
      'GET /notifications-bank/history': ({ params }) => {
        if (params.get('notification_id') !== '=-7') return list([]);
        const channel = params.get('channel');
        const desc = params.get('sort') === JSON.stringify({ created_at: 'desc' });
        const rows = history
          .filter((h) => !channel || String(h.channel) === channel)
          .sort((a, b) => (desc ? b.created_at - a.created_at : a.created_at - b.created_at));
        return list(rows.slice(0, Number(params.get('page_size') ?? 20)));
      },
    });
    const { user } = renderTable(bankNotificationsResource);
    const table = await screen.findByRole('table', { name: 'Notifications Bank' });
    const row = await rowOf(table, '#107');
    await user.click(within(row).getByRole('button', { name: 'Detail' }));

    const dialog = await detailsDialog();
    const fact = (label: string) =>
      within(dialog).getByText(label, { selector: 'dt' }).nextElementSibling as HTMLElement;
    expect(fact('Notify Status')).toHaveTextContent('Failed');
    // Each channel: push status, outcome, and the last attempt's remark as the reason.
    await waitFor(() =>
      expect(fact('WebHook')).toHaveTextContent(/^Pending\s*Failed\s*HTTP 500; attempt 2 of 2, retries exhausted$/),
    );
    await waitFor(() => expect(fact('TG')).toHaveTextContent(/^NoNeed\s*NO Target\s*NO Target: no bank chat$/));

    // `hidden: true`: see detailsDialog.
    const attempts = await within(dialog).findByRole('table', { name: 'Push History', hidden: true });
    expect(await within(attempts).findByText('HTTP 500; attempt 1 of 2, will retry')).toBeInTheDocument();
    expect(within(attempts).getByText('upstream down')).toBeInTheDocument();
    expect(within(attempts).getByText('still down')).toBeInTheDocument();
    expect(within(attempts).getAllByText('WebHook')).toHaveLength(2);
    expect(within(attempts).getByText('TG')).toBeInTheDocument();
    // Oldest first: the rows read as the story of the delivery.
    const remarks = within(attempts)
      .getAllByText(/attempt \d of 2|NO Target:/)
      .map((el) => el.textContent);
    expect(remarks).toEqual([
      'HTTP 500; attempt 1 of 2, will retry',
      'HTTP 500; attempt 2 of 2, retries exhausted',
      'NO Target: no bank chat',
    ]);
    expect(
      api.callsTo('GET', '/notifications-bank/history').every((c) => c.params.get('notification_id') === '=-7'),
    ).toBe(true);
  });

  it('Details reads no attempt for a channel that was never a target', async () => {
    const api = stubApi({
      'GET /notifications-bank': () =>
        list([note(7, { status_tg: 0, notify_tg: -1, status_webhook: 2, notify_webhook: 1, pushed_webhook_at: T0 })]),
      'GET /notifications-bank/history': ({ params }) =>
        list(params.get('channel') === '2' ? [] : [attempt(1, { code: 200, remark: 'Delivered, attempt 1 of 4' })]),
    });
    const { user } = renderTable(bankNotificationsResource);
    const table = await screen.findByRole('table', { name: 'Notifications Bank' });
    await user.click(within(await rowOf(table, '#107')).getByRole('button', { name: 'Detail' }));
    const dialog = await detailsDialog();
    const fact = (label: string) =>
      within(dialog).getByText(label, { selector: 'dt' }).nextElementSibling as HTMLElement;
    await waitFor(() =>
      expect(fact('WebHook')).toHaveTextContent(
        new RegExp(`^Pushed\\s*${formatDateTime(T0)}\\s*Delivered, attempt 1 of 4$`),
      ),
    );
    expect(fact('TG')).toHaveTextContent(/^NoNeed$/);
    expect(api.callsTo('GET', '/notifications-bank/history').some((c) => c.params.get('channel') === '2')).toBe(false);
  });

  it('Replay on a row re-sends it, tips success and reloads the row’s status', async () => {
    let rows = [note(7)];
    const api = stubApi({
      'GET /notifications-bank': () => list(rows),
      'POST /notifications-bank/replay': () => {
        rows = [note(7, { status_webhook: 2, notify_webhook: 1, pushed_webhook_at: T0 + 5000, notify_status: 1 })];
        return { queued: [7], skipped: [] };
      },
    });
    const { user } = renderTable(bankNotificationsResource);
    const table = await screen.findByRole('table', { name: 'Notifications Bank' });
    const row = await rowOf(table, '#107');
    await user.click(within(row).getByRole('button', { name: 'Replay' }));
    expect(await findToast('Replay success.')).toBeInTheDocument();
    expect(await findToast('1 notification(s) sent again.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/notifications-bank/replay')[0].body).toEqual({ ids: [7] });
    await waitFor(() => expect(within(table).getByText('Pushed')).toBeInTheDocument());
    expect(within(table).getByText(formatDateTime(T0 + 5000))).toBeInTheDocument();
  });

  it('names the notifications the server would not replay, and tips a failure with its reason', async () => {
    let fail = false;
    stubApi({
      'GET /notifications-bank': () => list([note(7, { status_webhook: 2, notify_webhook: 1 })]),
      'POST /notifications-bank/replay': () =>
        fail
          ? jsonResponse({ code: 4000, msg: 'Give ids, or failed: true', request_id: 'r' }, 400)
          : { queued: [], skipped: [{ id: 7, reason: 'Already delivered to the webhook' }] },
    });
    const { user } = renderTable(bankNotificationsResource);
    const table = await screen.findByRole('table', { name: 'Notifications Bank' });
    const row = await rowOf(table, '#107');
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
