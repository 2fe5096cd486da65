// Scratch: screenshots against a running stack (not a test).
import { launchBrowser, login, openPage } from './helpers.js';

const base = process.env.BASE ?? 'http://127.0.0.1:3117';
const out = '/tmp/patrol-logs-shots';
const only = process.argv[2];
const browser = await launchBrowser();
const page = await openPage(browser, base);
page.on('console', (m) => { if (m.type() === 'error') console.log('console:', m.text()); });
await login(page, 'admin', 'admin-pass-1');
const shot = async (name: string) => { await page.waitForTimeout(500); await page.screenshot({ path: `${out}/${name}.png` }); console.log('shot', name); };
const steps: Record<string, () => Promise<void>> = {
  async login() {
    await page.goto('/logs/login'); await page.getByRole('button', { name: 'View' }).first().waitFor(); await shot('log-login');
    await page.getByRole('button', { name: 'View' }).first().click(); await page.getByTestId('raw-log-view').waitFor(); await shot('log-login-rawlog');
  },
  async place() {
    await page.goto('/logs/place-bets'); await page.getByRole('button', { name: 'View' }).first().waitFor(); await shot('log-place');
    await page.getByRole('button', { name: /^View Result/ }).first().click(); await page.getByRole('dialog').waitFor(); await shot('log-place-result');
  },
  async fix() {
    await page.goto('/logs/fix-bet'); await page.getByRole('button', { name: /^View \(/ }).first().waitFor(); await shot('log-fix');
    await page.getByRole('button', { name: /^View \(/ }).first().click(); await page.getByRole('dialog').waitFor(); await shot('log-fix-draw');
  },
  async out3() {
    await page.goto('/logs/out-setting-3'); await page.getByRole('button', { name: /^Detail/ }).first().waitFor(); await shot('log-out3');
    await page.getByRole('button', { name: /^Detail/ }).first().click(); await page.getByRole('dialog').waitFor(); await shot('log-out3-detail');
  },
  async out3s() {
    await page.goto('/logs/out-setting-3-status'); await page.getByRole('button', { name: /^View \(/ }).first().waitFor(); await shot('log-out3s');
    await page.getByRole('button', { name: /^View \(/ }).first().click(); await page.getByRole('dialog').waitFor(); await shot('log-out3s-balance');
  },
  async agent() {
    await page.goto('/logs/agent-setting'); await page.getByRole('button', { name: /^View \(/ }).first().waitFor(); await shot('log-agent');
    await page.getByRole('button', { name: /^View \(/ }).first().click(); await page.getByRole('dialog').waitFor(); await shot('log-agent-stat');
  },
  async browser() {
    await page.goto('/browsers/logs'); await page.getByRole('button', { name: 'View' }).first().waitFor(); await shot('browser-logs');
    const row = page.getByRole('row').nth(1);
    await row.getByRole('button', { name: 'View' }).last().click(); await page.getByTestId('raw-log-view').waitFor(); await page.waitForTimeout(1500); await shot('browser-log-dialog');
    await page.keyboard.press('Escape');
    await row.getByRole('button', { name: 'View' }).first().click(); await page.getByRole('dialog').waitFor(); await shot('browser-log-result');
  },
  async video() {
    await page.goto('/browsers/videos'); await page.getByRole('button', { name: 'Play' }).first().waitFor(); await shot('browser-videos');
    await page.getByRole('button', { name: 'Play' }).first().click(); await page.getByTestId('video-player').waitFor(); await page.waitForTimeout(1500); await shot('browser-video-play');
  },
  async notes() {
    await page.goto('/notifications/notifications'); await page.getByRole('button', { name: 'Detail' }).first().waitFor(); await shot('notifications');
    await page.getByRole('button', { name: 'Detail' }).first().click(); await page.getByTestId('notification-content').waitFor(); await shot('notification-detail');
  },
};
for (const [name, run] of Object.entries(steps)) {
  if (only && !only.split(',').includes(name)) continue;
  try { await run(); } catch (e) { console.log('FAILED', name, String(e).slice(0, 300)); await shot(`${name}-failed`); }
}
await browser.close();
