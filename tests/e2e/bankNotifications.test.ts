// A bank notification's push history in the console (issue 15): a statement posted to the inbound
// webhook is delivered to the sandbox receiver, which fails the first attempt; the Notifications
// Bank table lists the notification with its webhook Pushed (and when) and its chat NoNeed, every
// column on a 1440 px screen, and its Detail opens 'Notification Details' with where each channel
// stands and both attempts (500, then 200) — against the real stack, the notifier and the sandbox receiver.
import { describe, expect, inject, it } from 'vitest';
import { kit, uniqueName } from '../helpers/authKit.js';
import { refreshedAccount } from '../helpers/refreshedAccount.js';
import { browserSession, cellOf, collectConsoleErrors, rowOf, screenshot, shows } from './helpers.js';
import { until } from '../helpers/until.js';

const stack = inject('stack');
const k = kit(stack);
const hooks = stack.env.SANDBOX_WEBHOOK_URL ?? '';
const session = browserSession(stack.url);

describe('Notifications Bank', () => {
  it("opens a delivered notification's details and shows each attempt", async () => {
    const token = await k.admin();
    const api = (method: 'get' | 'post' | 'put', path: string, body?: unknown) =>
      k.client[method](`/api/v1${path}`, method === 'get' ? { token } : { token, body: body ?? {} });

    // An account whose webhook is the sandbox receiver, told to fail the first attempt.
    // A receiver path as long as real ones get: the attempts must still fit the dialog.
    const hook = `${uniqueName('e2ehook').toLowerCase()}-orders.payments.receiver-endpoint-v2`;
    const user = uniqueName('kbz-notif-').toLowerCase();
    const created = await api('post', '/bank/bank-accounts', { bank_name: 1, user, pwd: 'sandbox123' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id as number;
    await refreshedAccount((path) => api('post', path), id);
    const apiKey = `key-${uniqueName('k')}`;
    const updated = await api('put', `/bank/bank-account/${id}`, {
      webhook: `${hooks}/hooks/${hook}`,
      api_key: apiKey,
      // Enabled (only an enabled account's key may push), and not polled: its range is the day's first second.
      range: [[0, 1]],
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const subs = (await api('get', `/bank/bank-account/${id}/sub`)).body.data as { no: string }[];
    await fetch(`${hooks}/sandbox/hooks/${hook}/behaviour`, {
      method: 'PUT',
      body: JSON.stringify({ mode: 'fail', times: 1 }),
    });

    const posted = await k.client.post('/webhook/bank', {
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: {
        bank: 1,
        type: 1,
        content: {
          bank: 1,
          account: subs[0]?.no,
          sender: 'U Ba',
          remark: 'E2E order',
          send_date: '2026-11-23',
          send_time: '',
          amount: '150.25',
        },
      },
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    await until(
      'the webhook delivery to succeed',
      async () =>
        (await api('get', `/notifications-bank?account_id=%3D-${id}`)).body.data.result as { status_webhook: number }[],
      (rows) => rows[0]?.status_webhook === 2,
      { ms: 60_000, everyMs: 300 },
    );

    // An operator: the console's user, whose screen has the menu drawer and no super menu.
    const operator = uniqueName('e2eop').toLowerCase();
    await k.createUser(operator, 'operator-pass-1');
    const page = await session.signedIn(operator, 'operator-pass-1');
    const errors = collectConsoleErrors(page);
    await page.goto(`/notifications/notifications-bank?account_id=${id}`);
    const table = page.getByRole('table', { name: 'Notifications Bank' });
    await shows(rowOf(table, user));
    const row = rowOf(table, user).first();
    // The webhook cell: Pushed, with the time; the chat is off, so nothing to push there.
    const webhookCell = await cellOf(table, row, 'Webhook');
    await shows(webhookCell.getByText('Pushed', { exact: true }));
    expect(await webhookCell.textContent()).toMatch(/^Pushed\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(await (await cellOf(table, row, 'TG')).textContent()).toBe('NoNeed');
    // Every column fits the operator's 1440 px screen (menu drawer open): the table does not scroll sideways.
    const overflow = await table.evaluate((el) => {
      const box = el.parentElement as HTMLElement;
      return box.scrollWidth - box.clientWidth;
    });
    await screenshot(page, 'bank-notifications');
    expect(overflow).toBeLessThanOrEqual(0);
    await row.getByRole('button', { name: 'Detail' }).click();
    const dialog = page.getByRole('dialog', { name: 'Notification Details' });
    await shows(dialog);
    await shows(dialog.getByText(`${hooks}/hooks/${hook}`));
    await shows(dialog.getByRole('cell', { name: '500', exact: true }));
    await shows(dialog.getByRole('cell', { name: '200', exact: true }));
    // The summary: the webhook's last attempt says how it got there.
    await shows(dialog.locator('dd').getByText(/^Delivered, attempt 2 of \d+$/));
    // The attempts' columns fit the dialog: Code, Response and Remark are in sight, not past its edge.
    const attemptsOverflow = await dialog.getByRole('table', { name: 'Push History' }).evaluate((el) => {
      const box = el.parentElement as HTMLElement;
      return box.scrollWidth - box.clientWidth;
    });
    await screenshot(page, 'bank-notification-details');
    expect(attemptsOverflow).toBeLessThanOrEqual(0);
    expect(errors.errors).toEqual([]);
  });
});
