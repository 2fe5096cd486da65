// Reports end to end (issue 46 item 1): an operator opens Message → Reports, generates the report of
// last week (the dialog offers its Monday), lands on its page, downloads its CSV, finds it in the
// list, and opens its print view, which marks itself ready for the PDF printer; a viewer reads the
// list without Generate now; the screens in Chinese.
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { reportOfSites } from '../../web/src/features/reports/testReports.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { until } from '../helpers/until.js';
import { browserSession, collectConsoleErrors, rowOf, SCREENSHOT_DIR, screenshot, shows } from './helpers.js';

const stack = inject('stack');
const k = kit(stack);
const session = browserSession(stack.url);
const PASSWORD = 'reports-e2e-pass-1';

afterAll(() => k.destroy());

const mainMenu = (page: Page, name = 'Main menu') => page.getByRole('navigation', { name });

/**
 * Message → Reports from the left menu (its group opened unless it is already), pressed again
 * should the first press land while the home page behind a fresh sign-in is still loading.
 */
async function openReports(page: Page, texts = { menu: 'Main menu', group: 'Message', entry: 'Reports' }) {
  const menu = mainMenu(page, texts.menu);
  const link = menu.getByRole('link', { name: texts.entry, exact: true });
  await shows(menu.getByText(texts.group, { exact: true }));
  if (!(await link.isVisible())) await menu.getByText(texts.group, { exact: true }).click();
  await until(
    'the Reports screen',
    async () => {
      await link.click();
      return page
        .waitForURL((url) => url.pathname === '/reports', { timeout: 5000 })
        .then(
          () => true,
          () => false,
        );
    },
    (opened) => opened,
    { ms: 60_000, everyMs: 0 },
  );
}

let made: { id: number; start: string; end: string } | undefined;

describe('Reports', () => {
  it("generates last week's report, opens it, downloads its CSV, lists it and prints it", async () => {
    const name = uniqueName('e2ereports');
    await k.createUser(name, PASSWORD, 'operator');
    const page = await session.signedIn(name, PASSWORD);
    const errors = collectConsoleErrors(page);
    await openReports(page);
    await shows(page.getByRole('table', { name: 'Reports' }));
    await screenshot(page, 'reports-list-before-en');

    await page.getByRole('button', { name: 'Generate now' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Generate report' });
    await shows(dialog);
    await shows(dialog.getByText('A week starts on Monday: pick a Monday'));
    const start = await dialog.getByRole('combobox', { name: 'Start' }).inputValue();
    expect(new Date(`${start}T00:00:00Z`).getUTCDay(), start).toBe(1);
    await screenshot(page, 'reports-generate-en');
    await dialog.getByRole('button', { name: 'Confirm' }).click();

    await page.waitForURL(/\/reports\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const sunday = new Date(Date.parse(`${start}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10);
    made = { id, start, end: sunday };
    await shows(page.getByRole('heading', { name: `Weekly report · ${start} – ${sunday}` }), 60_000);
    for (const section of [
      'Summary',
      'Sites and processes',
      'Days',
      'Maintenance windows',
      'Incidents',
      'Bank accounts',
      'Deliveries',
    ])
      await shows(page.getByRole('region', { name: section }));
    await screenshot(page, 'report-en');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`patrol-report-week-${start}.csv`);
    const csv = await readFile(await file.path(), 'utf8');
    expect(csv).toContain(`week ${start} to ${sunday}`);

    await openReports(page);
    const row = rowOf(page.getByRole('table', { name: 'Reports' }), `${start} – ${sunday}`);
    await shows(row.getByText('Not sent'));
    await shows(row.getByText(name));
    await screenshot(page, 'reports-list-en');

    // The print view: the page alone, laid out for A4, and the marker the printer waits for.
    await page.goto(`/reports/${id}?print=1`);
    await page.waitForSelector('body[data-report-ready="1"]', { timeout: 60_000 });
    await shows(page.getByRole('heading', { name: `Weekly report · ${start} – ${sunday}` }));
    expect(await mainMenu(page).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Download CSV' }).count()).toBe(0);
    await screenshot(page, 'report-print-en');
    // Chromium prints it on A4 pages with the page's own margins (the page numbers are the printer's footer).
    const pdfFile = join(tmpdir(), `${name}.pdf`);
    await writeFile(pdfFile, await page.pdf({ preferCSSPageSize: true, printBackground: true }));
    expect(execFileSync('pdfinfo', [pdfFile], { encoding: 'utf8' })).toMatch(/Page size:.*\(A4\)/);
    const text = execFileSync('pdftotext', ['-layout', pdfFile, '-'], { encoding: 'utf8' });
    expect(text).toContain(`Weekly report · ${start} – ${sunday}`);
    expect(text).toContain('Sites and processes');
    expect(errors.errors).toEqual([]);
  });

  it('lays a report with figures out on A4, every page with its table header, in the report language', async () => {
    // The stack's own checks all ran today, which no report may cover yet: this report's figures are
    // served from the screens' test fixture (40 sites × 3 processes), to see the layout with rows.
    const page = await session.signedIn('admin', stack.adminPassword);
    for (const language of ['en', 'zh'] as const) {
      const figures = reportOfSites(40, { id: 990_001, language });
      await page.route('**/api/v1/reports/990001', (route) =>
        route.fulfill({ json: { code: 1000, msg: 'SUCCESS', data: figures } }),
      );
      await page.goto('/reports/990001?print=1');
      await page.waitForSelector('body[data-report-ready="1"]', { timeout: 60_000 });
      await screenshot(page, `report-print-figures-${language}`);
      await page.locator(`section[aria-label="${language === 'en' ? 'Days' : '天数'}"]`).screenshot({
        path: join(SCREENSHOT_DIR, `report-print-days-${language}.png`),
      });
      const pdfFile = join(tmpdir(), `report-figures-${language}-${Date.now()}.pdf`);
      await writeFile(pdfFile, await page.pdf({ preferCSSPageSize: true, printBackground: true }));
      const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdfFile], { encoding: 'utf8' }))?.[1]);
      const text = execFileSync('pdftotext', ['-layout', pdfFile, '-'], { encoding: 'utf8' });
      // 120 lines of sites run over pages; each page of the table starts with its header again.
      const header = language === 'en' ? 'p95 (ms)' : 'p95（毫秒）';
      const sitePages = text.split('\f').filter((p) => (language === 'en' ? /All\s+processes/ : /全部检测点/).test(p));
      expect(pages, text.slice(0, 500)).toBeGreaterThan(2);
      expect(sitePages.length).toBeGreaterThan(1);
      for (const sheet of sitePages) expect(sheet).toContain(header);
      // The last column fits the page: a site's maintenance time is there whole.
      // pdftotext spaces out CJK text: compare with runs of white space as one.
      const flat = text.replace(/\s+/g, ' ');
      expect(flat).toContain(language === 'en' ? '1 h 30 min' : '1 小时 30 分钟');
      expect(flat).toContain(language === 'en' ? 'Weekly report · 2026-11-30' : '周报 · 2026-11-30');
      await page.unroute('**/api/v1/reports/990001');
    }
    // The screen itself, with figures.
    await page.route('**/api/v1/reports/990001', (route) =>
      route.fulfill({ json: { code: 1000, msg: 'SUCCESS', data: reportOfSites(3, { id: 990_001 }) } }),
    );
    await page.goto('/reports/990001');
    await shows(page.getByRole('table', { name: 'Sites and processes' }));
    await screenshot(page, 'report-figures-en');
    await page.getByRole('region', { name: 'Incidents' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'report-figures-en-lower');
  });

  it('shows a viewer the reports without Generate now', async () => {
    const name = uniqueName('e2erepview');
    await k.createUser(name, PASSWORD, 'viewer');
    const page = await session.signedIn(name, PASSWORD);
    await page.goto('/reports');
    const table = page.getByRole('table', { name: 'Reports' });
    await shows(table);
    if (made) await shows(rowOf(table, `${made.start} – ${made.end}`));
    expect(await page.getByRole('button', { name: 'Generate now' }).count()).toBe(0);
  });

  it('reads in Chinese', async () => {
    const page = await session.signedIn('admin', stack.adminPassword, { locale: 'zh' });
    await openReports(page, { menu: '主菜单', group: '消息', entry: '报告' });
    await shows(page.getByRole('table', { name: '报告' }));
    await page.getByRole('button', { name: '立即生成' }).click();
    await shows(page.getByRole('alertdialog', { name: '生成报告' }).getByText('一周从周一开始：请选择周一'));
    await screenshot(page, 'reports-generate-zh');
    await page.keyboard.press('Escape');
    if (!made) return;
    await page.goto(`/reports/${made.id}`);
    await shows(page.getByRole('heading', { name: `周报 · ${made.start} – ${made.end}` }), 60_000);
    await shows(page.getByRole('region', { name: '站点与检测点' }));
    await screenshot(page, 'report-zh');
  });
});
