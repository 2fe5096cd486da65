import type { Page } from 'puppeteer-core';

/**
 * Puts a stored session's token into the site's localStorage before the site's own script runs,
 * as the site's script would have after a login. Chromium runs such a script in every new
 * document of the page, whatever its origin (iframes, redirect targets, ads), so the script checks
 * the origin first: only documents of the site itself ever see the token. It only seeds: after a
 * fallback login the page keeps its new token, which this must not overwrite.
 */
export async function seedSessionToken(page: Page, siteUrl: string, token: string): Promise<void> {
  const origin = new URL(siteUrl).origin;
  await page.evaluateOnNewDocument(
    `if (location.origin === ${JSON.stringify(origin)} && !localStorage.getItem('token')) localStorage.setItem('token', ${JSON.stringify(token)})`,
  );
}
