// The PDF of a report: the console's own report page (`/reports/:id?print=1`, A4 print styles, in the
// report's language) printed by the Chromium Patrol already runs for checks (functions/checks/browser:
// Debian's Chromium locally, @sparticuz/chromium on Lambda), in a browser context of its own.
//
// The page calls the API like any console page, so it needs a signed-in session. The printer never
// borrows a person's: it mints an API token of the `read` scope (a viewer's GETs, nothing else) that
// lives PRINT_TOKEN_MS, named after the report, puts it where the console keeps its session
// (localStorage, web/src/app/auth.ts) before the page's scripts run, and revokes it when the page is
// printed. Tokens need a super user as creator (functions/apiTokens/service.ts); the token itself has
// only the read scope (it writes nothing) and shows in the super area's Tokens list, revoked, under
// its name.

import { emptyListQuery } from '../../shared/listQuery.js';
import type { ReportLanguage } from '../../shared/schemas/reports.js';
import { createApiToken, revokeApiToken } from '../apiTokens/service.js';
import { sharedBrowser } from '../checks/browser/launchBrowser.js';
import { config } from '../lib/config.js';
import { listUsers } from '../users/service.js';

/** How long the printer's token lives: the page loads and renders in seconds; a stuck print ends with it. */
export const PRINT_TOKEN_MS = 3 * 60_000;
/** How long the page may take to say it has rendered (`document.body.dataset.reportReady = '1'`). */
const READY_TIMEOUT_MS = 60_000;
/** The console's keys in localStorage (web/src/app/auth.ts AUTH_STORAGE_KEY, web/src/i18n LOCALE_STORAGE_KEY). */
const AUTH_KEY = 'patrol.auth';
const LOCALE_KEY = 'patrol.locale';

/** Every page numbered, in the footer Chromium draws (its own classes fill the numbers in). */
const FOOTER = `<div style="width:100%;font-size:8px;color:#666;text-align:center;font-family:sans-serif">
<span class="pageNumber"></span> / <span class="totalPages"></span></div>`;

export class ReportPrintError extends Error {
  override name = 'ReportPrintError';
}

async function printerCreator() {
  const supers = await listUsers(
    emptyListQuery({
      page_size: 1,
      filters: { role: { kind: 'enum', values: ['super'] }, enabled: { kind: 'boolean', value: true } },
    }),
  );
  const user = supers.result[0];
  if (!user) throw new ReportPrintError('No enabled super user can create the printer’s token');
  return { id: user.id, username: user.username, nickname: user.nickname, role: 'super' as const };
}

/** Prints report `id`'s page to an A4 PDF with numbered pages, in `language`. */
export async function printReportPdf(id: number, language: ReportLanguage, now = Date.now()): Promise<Buffer> {
  const token = await createApiToken(
    { name: `Report printer #${id}`.slice(0, 40), scope: 'read', expires_at: now + PRINT_TOKEN_MS },
    await printerCreator(),
    now,
  );
  const browser = await sharedBrowser();
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    // Before any script of the page: the console reads its session and language as it starts.
    await page.evaluateOnNewDocument(
      (authKey: string, auth: string, localeKey: string, locale: string) => {
        localStorage.setItem(authKey, auth);
        localStorage.setItem(localeKey, locale);
      },
      AUTH_KEY,
      JSON.stringify({ jwt: token.token, name: 'Report printer', s: 'viewer' }),
      LOCALE_KEY,
      language,
    );
    await page.goto(new URL(`/reports/${id}?print=1`, `${config.publicUrl}/`).toString(), {
      waitUntil: 'load',
      timeout: READY_TIMEOUT_MS,
    });
    // '1' once drawn, 'failed' when the page could not read the report (web/src/features/reports/).
    const ready = await page
      .waitForFunction(
        () =>
          ['1', 'failed'].includes(document.body.dataset.reportReady ?? '') ? document.body.dataset.reportReady : false,
        { timeout: READY_TIMEOUT_MS },
      )
      .then((handle) => handle.jsonValue() as Promise<unknown>)
      .catch((cause: unknown) => {
        throw new ReportPrintError(`The report page did not finish rendering within ${READY_TIMEOUT_MS / 1000} s`, {
          cause,
        });
      });
    if (ready !== '1') throw new ReportPrintError('The report page could not read the report');
    const pdf = await page.pdf({
      format: 'A4',
      printBackground: true,
      displayHeaderFooter: true,
      headerTemplate: '<span></span>',
      footerTemplate: FOOTER,
      // The page's own @page margins (web/src/features/reports/printView.ts); the footer sits in the bottom one.
      margin: { top: '14mm', right: '12mm', bottom: '18mm', left: '12mm' },
    });
    return Buffer.from(pdf);
  } finally {
    await context.close().catch(() => undefined);
    await revokeApiToken(token.id).catch(() => undefined);
  }
}
