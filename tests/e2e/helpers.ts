// Shared by every end-to-end test: a real Chromium (Debian's) driven by playwright-core, a page
// per test with its own storage and client address, the login form, screenshots, console errors.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { uniqueIp } from '../helpers/authKit.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const SCREENSHOT_DIR = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');
export const VIEWPORT = { width: 1440, height: 900 };

/** One headless Chromium; close it in afterAll. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, headless: true });
}

export interface OpenPageOptions {
  /** The console's language; 'en' by default so tests read the spec's English texts (the product defaults to zh). */
  locale?: 'en' | 'zh';
  /**
   * The client address the API sees (X-Forwarded-For, trusted from loopback only). Each page gets a
   * fresh one by default, so one test's failed logins never bring a captcha to another's.
   */
  ip?: string;
  context?: BrowserContextOptions;
}

/** A page in a fresh browser context (empty storage: signed out, default drawers and tabs) on `baseURL`. */
export async function openPage(browser: Browser, baseURL: string, opts: OpenPageOptions = {}): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    viewport: VIEWPORT,
    extraHTTPHeaders: { 'x-forwarded-for': opts.ip ?? uniqueIp() },
    ...opts.context,
  });
  const locale = opts.locale ?? 'en';
  // Only when unset, so a test that switches the language keeps its choice across reloads.
  await context.addInitScript({
    content: `if (!localStorage.getItem('patrol.locale')) localStorage.setItem('patrol.locale', ${JSON.stringify(locale)});`,
  });
  return context.newPage();
}

const onLoginPage = (page: Page) => new URL(page.url(), 'http://x').pathname.startsWith('/auth/login');

/** Fills and sends the login form (opening it unless the page is already there) and waits for the answer. */
export async function submitLogin(page: Page, username: string, password: string): Promise<void> {
  if (!onLoginPage(page)) await page.goto('/auth/login');
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(password);
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/v1/login'));
  await page.locator('form button[type="submit"]').click();
  await answer;
}

/** Signs in through the login form and waits until the console has left the login page. */
export async function login(page: Page, username: string, password: string): Promise<void> {
  await submitLogin(page, username, password);
  await page.waitForURL((url) => !url.pathname.startsWith('/auth/login'));
}

/** Full-page PNG in tests/e2e/screenshots/<name>.png (git-ignored); returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  // Toasts and the loading bar fade; let them settle so the picture shows the screen itself.
  await page.waitForTimeout(300);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/**
 * Console errors and uncaught exceptions of `page`, from now on. Read `.errors` after acting;
 * `clear()` between steps. Patterns in `ignore` (e.g. an expected 401's resource error) are dropped.
 */
export function collectConsoleErrors(page: Page, ignore: RegExp[] = []) {
  const errors: string[] = [];
  const keep = (text: string) => !ignore.some((re) => re.test(text)) && errors.push(text);
  page.on('console', (msg) => {
    if (msg.type() === 'error') keep(`${msg.text()} (${msg.location().url})`);
  });
  page.on('pageerror', (error) => keep(`uncaught: ${error.message}`));
  return {
    errors,
    clear: () => {
      errors.length = 0;
    },
  };
}
