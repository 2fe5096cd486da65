// API tokens end to end (issue 46 item 2): a super user creates a token on the Tokens screen, sees
// it once (it works against /metrics), closes the dialog (it is gone), and revokes it (it stops).
import { afterAll, describe, expect, inject, it } from 'vitest';
import { kit, uniqueName } from '../helpers/authKit.js';
import { browserSession, rowOf, screenshot, shows } from './helpers.js';

const stack = inject('stack');
const k = kit(stack);
const session = browserSession(stack.url);

afterAll(() => k.destroy());

const scrape = (token: string) => k.client.get('/api/v1/metrics', { token });

describe('API tokens', () => {
  it('creates a token on the Tokens screen, shows it once, and revokes it', async () => {
    const name = uniqueName('e2etokens');
    await k.createUser(name, 'tokens-e2e-pass-1', 'super');
    const page = await session.signedIn(name, 'tokens-e2e-pass-1');
    await page.getByRole('navigation', { name: 'Super menu' }).getByRole('link', { name: 'API tokens' }).click();
    await page.waitForURL((url) => url.pathname === '/super/users/tokens');
    const table = page.getByRole('table', { name: 'API tokens' });
    await shows(table);

    const tokenName = uniqueName('grafana-');
    await page.getByRole('button', { name: 'New token' }).click();
    const form = page.getByRole('alertdialog', { name: 'New token' });
    await form.getByRole('textbox', { name: 'Name' }).fill(tokenName);
    await form.getByRole('radio', { name: /^Metrics/ }).check();
    await form.getByRole('button', { name: 'Confirm' }).click();

    const shown = page.getByRole('dialog', { name: `Token ${tokenName}` });
    await shows(shown);
    const token = (await shown.getByTestId('new-token').textContent())?.trim() ?? '';
    expect(token).toMatch(/^pat_[A-Za-z0-9_-]{43}$/);
    await shows(shown.getByRole('button', { name: 'Copy' }));
    await screenshot(page, 'api-token-shown-once');
    expect((await scrape(token)).status).toBe(200);

    await shown.getByRole('button', { name: 'OK' }).click();
    await shown.waitFor({ state: 'hidden' });
    const row = rowOf(table, tokenName);
    await shows(row);
    await shows(row.getByText('Active'));
    await shows(row.getByText(token.slice(0, 12)));
    expect(await page.locator('body').textContent()).not.toContain(token);
    await screenshot(page, 'api-tokens-list');

    await row.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('alertdialog').filter({ hasText: `Token ${tokenName} stops working at once.` });
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await shows(row.getByText('Revoked'));
    expect(await row.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    expect((await scrape(token)).status).toBe(401);
  });

  it('reads in Chinese', async () => {
    const page = await session.signedIn('admin', stack.adminPassword, { locale: 'zh' });
    await page.goto('/super/users/tokens');
    const table = page.getByRole('table', { name: 'API 令牌' });
    await shows(table);
    await page.getByRole('button', { name: '新建令牌' }).click();
    await shows(page.getByRole('alertdialog', { name: '新建令牌' }));
    await screenshot(page, 'api-token-new-zh');
  });
});
