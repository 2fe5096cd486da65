// Telegram end to end (issue 15 item 1): a super user sets up the bot in the super area and sends a
// test message; an operator's SendTG puts a notification on the chat, and a refusal shows
// 'Send TG Notification Failed.' with Telegram's reason. Against the stack's sandbox Bot API.
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { RunStatus } from '../../shared/enums.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { browserSession, collectConsoleErrors, rowOf, screenshot, shows } from './helpers.js';

const stack = inject('stack');
const k = kit(stack);
const tgUrl = stack.env.TELEGRAM_API_URL;
const session = browserSession(stack.url);
const TOKEN = '7005006007:AAE-e2e_sandbox_token_0123456789abcdef';
const chat = `-100${Date.now() % 10_000_000}`;

type Received = { status: number; text: string };
async function sandbox(path: string, body?: unknown) {
  const res = await fetch(`${tgUrl}/sandbox/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}
const received = async (): Promise<Received[]> => (await sandbox(`messages?chat_id=${chat}`)).messages;

const superMenu = (page: Page) => page.getByRole('navigation', { name: 'Super menu' });

afterAll(async () => {
  await k.client.put('/api/v1/super/notification/tg', {
    token: await k.admin(),
    body: { check_chat_id: chat, bank_chat_id: '', check_enabled: false, bank_enabled: false, per_subtask: false },
  });
  k.destroy();
});

/** A check whose login fails on the sandbox site: its notifications appear within seconds. */
async function failedOperation(): Promise<{ operationId: number; siteName: string }> {
  const token = await k.admin();
  const siteName = uniqueName('TG e2e ');
  const site = await k.client.post('/api/v1/sites', {
    token,
    body: {
      name: siteName,
      url: stack.env.SANDBOX_SITE_URL,
      accounts: [{ user: uniqueName('locked'), pwd: 'sandbox123' }],
    },
  });
  const op = await k.client.post(`/api/v1/sites/${site.body.data.id}/check`, {
    token,
    body: { points: [{ point: 1, modes: [1] }] },
  });
  const id = op.body.data.id as number;
  for (const end = Date.now() + 120_000; Date.now() < end; ) {
    const status = (await k.client.get(`/api/v1/operations/${id}/tasks`, { token })).body.data.operation.status;
    if (status === RunStatus.values.Failed || status === RunStatus.values.Done) return { operationId: id, siteName };
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`operation ${id} did not end`);
}

describe('Telegram', () => {
  it('a super user configures Telegram in the super area and sends a test message', async () => {
    const page = await session.signedIn('admin', stack.adminPassword);
    const console = collectConsoleErrors(page);
    await superMenu(page).getByRole('link', { name: 'TG notification' }).click();
    await page.waitForURL((url) => url.pathname === '/super/notification/tg');
    await shows(page.getByRole('heading', { name: 'TG notification' }));

    await page.locator('input[name="bot_token"]').fill(TOKEN);
    const check = page.getByRole('region', { name: 'Check notifications' });
    await check.locator('input[name="check_chat_id"]').fill(chat);
    await check.getByRole('switch').check();
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/v1/super/notification/tg') && r.request().method() === 'PUT',
    );
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await saved).status()).toBe(200);
    await shows(page.getByText('Save TG settings success.'));
    // The token is gone from the form; only its masked hint is shown.
    await expect.poll(() => page.locator('input[name="bot_token"]').inputValue()).toBe('');
    await shows(
      page.getByText(`Stored encrypted (${TOKEN.slice(0, 2)}***${TOKEN.slice(-2)}). Leave empty to keep it.`),
    );

    await check.getByRole('button', { name: /Send test message/ }).click();
    await shows(page.getByText(`Delivered to chat ${chat}`));
    await shows(page.getByText(/"message_id": 1/));
    await screenshot(page, 'telegram-settings-test-sent');
    const [sent] = await received();
    expect(sent).toMatchObject({ status: 200 });
    expect(sent.text).toContain('Patrol test message');
    expect(console.errors).toEqual([]);
  });

  it('SendTG puts a notification on the chat, and a refusal shows the failure with Telegram’s reason', async () => {
    const { operationId, siteName } = await failedOperation();
    // Only this check's messages count: a check of an earlier file on this stack that ends late posts
    // to the same chat (once, on a loaded machine, a third message came in here).
    const ofThisCheck = async () =>
      (await received()).filter((m) => m.text.includes(siteName) || m.text.includes(`Operation ${operationId} `));
    // Automatic delivery: the failed login's incident, its one message; the operation sends no summary.
    await expect.poll(async () => (await ofThisCheck()).length, { timeout: 30_000 }).toBe(1);
    expect((await ofThisCheck())[0].text).toContain('Failing: incident');

    const page = await session.signedIn('admin', stack.adminPassword);
    await page.goto('/notifications/notifications');
    const table = page.getByRole('table', { name: 'Notifications' });
    const row = rowOf(table, `Operation ${operationId} finished with failures`);
    await shows(row);
    await shows(row.getByText('No Need'));
    await row.getByRole('button', { name: 'SendTG' }).click();
    await shows(page.getByText('Send TG Notification Success.'));
    await shows(row.getByText('Success'));
    await expect.poll(async () => (await ofThisCheck()).length).toBe(2);
    expect((await ofThisCheck())[1].text).toContain(`Operation ${operationId} finished with failures`);
    await screenshot(page, 'telegram-sendtg-success');

    await sandbox(`chats/${chat}`, { state: 'blocked' });
    await row.getByRole('button', { name: 'SendTG' }).click();
    await shows(page.getByText('Send TG Notification Failed.'));
    await shows(page.getByText('403 Forbidden: bot was kicked from the group chat').first());
    await shows(row.getByText('Failed'));
    await screenshot(page, 'telegram-sendtg-failed');

    // The settings page now shows the check chat Failed with the reason.
    await page.goto('/super/notification/tg');
    const check = page.getByRole('region', { name: 'Check notifications' });
    await shows(check.getByText('403 Forbidden: bot was kicked from the group chat'));
    await screenshot(page, 'telegram-settings-channel-failed');
  });
});
