// One Chromium per process, a fresh context per check. Locally (and in tests) that is Debian's
// Chromium through puppeteer-core; on Lambda it is @sparticuz/chromium, whose --single-process
// mode dies on createBrowserContext, so there each invocation runs one check in the default context.
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { config } from '../../lib/config';

/** Flags for headless Chromium on our hosts (team brief). */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;

const singleProcess = new WeakSet<Browser>();

/** True on Lambda unless CHROMIUM_PATH points at a browser of our own. */
export function usesLambdaChromium(): boolean {
  return !!process.env.AWS_LAMBDA_FUNCTION_NAME && !config.chromiumPath;
}

export async function launchBrowser(opts: { executablePath?: string } = {}): Promise<Browser> {
  if (!opts.executablePath && usesLambdaChromium()) {
    const { default: chromium } = await import('@sparticuz/chromium');
    // Its WebGL default multiplied CPU by 5 in our measurements.
    chromium.setGraphicsMode = false;
    const browser = await puppeteer.launch({
      executablePath: await chromium.executablePath(),
      args: chromium.args,
      headless: true,
      defaultViewport: null,
    });
    singleProcess.add(browser);
    return browser;
  }
  return puppeteer.launch({
    executablePath: opts.executablePath ?? config.chromiumPath ?? '/usr/bin/chromium',
    args: [...CHROMIUM_FLAGS],
    headless: true,
    defaultViewport: null,
  });
}

let shared: Promise<Browser> | undefined;

/** The process's browser, launched on first use and again if it crashed or was closed. */
export async function sharedBrowser(): Promise<Browser> {
  if (shared) {
    const browser = await shared.catch(() => undefined);
    if (browser?.connected) return browser;
  }
  shared = launchBrowser();
  return shared;
}

export async function closeSharedBrowser(): Promise<void> {
  const browser = await shared?.catch(() => undefined);
  shared = undefined;
  await browser?.close().catch(() => {});
}

export interface CheckContext {
  context: BrowserContext;
  page: Page;
  /** Ends the check's context (or, in the default context, its page and cookies). Never throws. */
  close(): Promise<void>;
}

export async function openCheckContext(browser: Browser): Promise<CheckContext> {
  if (singleProcess.has(browser)) {
    const context = browser.defaultBrowserContext();
    const page = await context.newPage();
    return {
      context,
      page,
      close: async () => {
        await page.close().catch(() => {});
        const cookies = await context.cookies().catch(() => []);
        if (cookies.length) await context.deleteCookie(...cookies).catch(() => {});
      },
    };
  }
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  return { context, page, close: () => context.close().catch(() => {}) };
}
