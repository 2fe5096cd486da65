// The check flow end to end (spec sections 2-4, 8; docs/check-engine.md): a sandbox site is checked
// from its Check dialog, the operation is followed to Done, a subtask's raw log and video are opened
// from the operation detail, the same video from Browser Video, the Place Bet log's browser log, and
// the notifications the check wrote — against the real stack, the real checker and the sandbox site.
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { api, login as apiLogin } from '../helpers/api.js';
import { uniqueName } from '../helpers/authKit.js';
import { browserSession, cellOf, collectConsoleErrors, rowOf, screenshot, searchTable, shows } from './helpers.js';

const stack = inject('stack');
const SANDBOX_URL = stack.env.SANDBOX_SITE_URL;
/** The checker runs four subtasks at a time against the sandbox; a whole check ends well within this. */
const CHECK_LIMIT_MS = 90_000;

const session = browserSession(stack.url);
/** Set by the first test, read by the notifications test. */
let checked: { operationId: number; siteName: string } | null = null;

const asAdmin = () => session.signedIn('admin', stack.adminPassword);
/** The value of a label/value pair of a summary (operation and notification detail). */
const fact = (scope: Page | Locator, label: string) => {
  // A `has` locator is resolved inside the filtered element, so it must not start from `scope`.
  const page = 'page' in scope ? scope.page() : scope;
  return scope
    .locator('dl > div')
    .filter({ has: page.locator('dt').getByText(label, { exact: true }) })
    .locator('dd');
};

/** A checkbox's tri-state as a user sees it: ticked, empty or the dash of a partly ticked group. */
const boxState = (box: Locator) =>
  box.evaluate((el) => {
    const input = el as HTMLInputElement;
    return input.indeterminate ? 'mixed' : input.checked;
  });

/**
 * Plays the first video in `scope` until it has shown some of the recording, then pauses it on
 * that frame (for the screenshot) and reports what the element knows.
 */
async function playVideo(scope: Locator) {
  const video = scope.locator('video').first();
  await shows(video);
  // Muted, as Chromium only lets unmuted media start from a user gesture.
  await video.evaluate((el) => {
    const v = el as HTMLVideoElement;
    v.muted = true;
    return v.play();
  });
  await expect
    .poll(() => video.evaluate((el) => (el as HTMLVideoElement).currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0.25);
  return video.evaluate((el) => {
    const v = el as HTMLVideoElement;
    v.pause();
    return { readyState: v.readyState, duration: v.duration, width: v.videoWidth, error: v.error?.code ?? null };
  });
}

async function createSandboxSite(): Promise<{ id: number; name: string }> {
  const token = await apiLogin(stack.url, 'admin', stack.adminPassword);
  const name = uniqueName('chk-');
  const res = await api(stack.url).post('/api/v1/sites', {
    token,
    body: { name, url: SANDBOX_URL, accounts: [{ user: 'agent01', pwd: 'sandbox123' }] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.data.id, name };
}

beforeAll(() => {
  expect(SANDBOX_URL, 'the global stack names its sandbox site').toMatch(/^https?:\/\//);
});

describe('Check flow', () => {
  it('checks a site from its Check dialog, follows the operation to Done and plays the recorded video', async () => {
    const site = await createSandboxSite();
    const page = await asAdmin();
    const console = collectConsoleErrors(page);

    // Sites, narrowed to the new site, and its Check dialog.
    await page.goto('/sites');
    const sites = page.getByRole('table', { name: 'Sites' });
    await shows(sites);
    await shows(sites.locator('tbody tr'));
    await searchTable(page, site.name);
    await expect.poll(() => sites.locator('tbody tr').count()).toBe(1);
    await rowOf(sites, site.name).getByRole('button', { name: 'Check' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose checkpoint for site' });
    await shows(dialog);
    await shows(dialog.getByRole('link', { name: SANDBOX_URL }));

    // Login in both modes, Place Bets in D4, Agent Setting in TT.
    const box = (name: string) => dialog.getByRole('checkbox', { name, exact: true });
    await box('Login Account: ALL').click();
    await box('Place Bets: D4').click();
    await box('Agent Setting: TT').click();
    expect(await boxState(box('Login Account: ALL'))).toBe(true);
    expect(await boxState(box('Login Account: D4'))).toBe(true);
    expect(await boxState(box('Login Account: TT'))).toBe(true);
    expect(await boxState(box('Place Bets: ALL'))).toBe('mixed');
    expect(await boxState(box('Agent Setting: ALL'))).toBe('mixed');
    expect(await boxState(box('Delete Bets: ALL'))).toBe(false);
    expect(await boxState(box('D4'))).toBe('mixed');
    expect(await boxState(box('ALL'))).toBe('mixed');
    await screenshot(page, 'checks-checkpoint-grid');

    // Check Now asks first, then the operation it started is one link away.
    await dialog.getByRole('button', { name: 'Check Now' }).click();
    const question = page
      .getByRole('alertdialog')
      .filter({ hasText: 'This operation will detection this site immediately, confirm to continue?' });
    await shows(question);
    await question.getByRole('button', { name: 'Confirm' }).click();
    await shows(page.getByText('Operation success, go operation menu to check.'));
    const link = dialog.getByRole('link', { name: /^Open operation \d+$/ });
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/operations\/\d+$/);
    const operationId = Number(href?.split('/').pop());
    checked = { operationId, siteName: site.name };
    await link.click();
    await page.waitForURL((url) => url.pathname === href);
    await dialog.waitFor({ state: 'detached' });

    // The detail refreshes itself while the operation runs, until it is Done.
    await shows(page.getByRole('heading', { name: `Operation #${operationId}` }));
    const status = fact(page, 'Status');
    await expect.poll(() => status.textContent(), { timeout: CHECK_LIMIT_MS, interval: 1000 }).toBe('Done');
    expect(await fact(page, 'Site').textContent()).toBe(site.name);
    await shows(page.getByText('Completed 1 of 1', { exact: true }));
    const tasks = page.getByRole('table', { name: 'Tasks' });
    const taskRow = rowOf(tasks, site.name);
    await shows(taskRow);
    await shows(taskRow.getByText('Done', { exact: true }));
    // The only task is opened on its subtasks: Login (once per task, in the first mode chosen),
    // Place Bets D4, Agent Setting TT.
    const placeBets = page.getByRole('table', { name: 'Place Bets' });
    await shows(placeBets);
    const groups = page.locator('section[aria-label]');
    expect(await groups.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual([
      'Login Account',
      'Place Bets',
      'Agent Setting',
    ]);
    const modeOf = (group: string) =>
      page.getByRole('table', { name: group }).locator('tbody tr').locator('td').nth(1).textContent();
    expect([await modeOf('Login Account'), await modeOf('Place Bets'), await modeOf('Agent Setting')]).toEqual([
      'D4',
      'D4',
      'TT',
    ]);
    const placeRow = placeBets.locator('tbody tr');
    expect(await placeRow.count()).toBe(1);
    const placeBetsId = Number(await placeRow.locator('td').first().textContent());
    const loginRow = page.getByRole('table', { name: 'Login Account' }).locator('tbody tr');
    const loginId = Number(await loginRow.locator('td').first().textContent());
    // The open task's subtasks should follow the operation to its end (product bug: they stay as last
    // polled while it ran — see the report); soft, so the rest of the flow is still checked.
    const subtaskStatuses = () =>
      groups.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.children[2]?.textContent));
    let statuses = await subtaskStatuses();
    for (const until = Date.now() + 12_000; statuses.some((st) => st !== 'Done') && Date.now() < until; ) {
      await page.waitForTimeout(500);
      statuses = await subtaskStatuses();
    }
    expect
      .soft(statuses, "the open task's subtasks show their end with the operation")
      .toEqual(['Done', 'Done', 'Done']);
    await screenshot(page, 'checks-operation-detail');

    // The subtask's logs: the raw log with its step timings and the recorded video, which plays.
    // Login's recording is the longest of the three (the others reuse its session).
    await loginRow.getByRole('button', { name: 'Logs' }).click();
    const logs = page.getByRole('dialog', {
      name: new RegExp(`^Check Logs · SubTask #${loginId} · Login Account · D4 · ${site.name}$`),
    });
    await shows(logs);
    const steps = logs.getByRole('table', { name: 'Steps' });
    await shows(steps);
    const stepRows = steps.locator('tbody tr');
    expect(await stepRows.count()).toBeGreaterThan(1);
    const timings = await stepRows.evaluateAll((rows) => rows.map((r) => r.children[1]?.textContent ?? ''));
    for (const ms of timings) expect(ms).toMatch(/^\d{1,3}(,\d{3})*$/);
    await shows(fact(logs, 'Finished').getByText('Yes', { exact: true }));
    const played = await playVideo(logs);
    expect(played.error).toBeNull();
    expect(played.readyState).toBeGreaterThanOrEqual(2);
    expect(played.width).toBeGreaterThan(0);
    // The sandbox answers locally, so a login records only about a second (0.7-1.4 s measured).
    expect(played.duration).toBeGreaterThan(0.5);
    await screenshot(page, 'checks-video-dialog');
    await logs.getByRole('button', { name: 'OK', exact: true }).click();
    await logs.waitFor({ state: 'detached' });

    // The same recording from Browser Video, scoped to the subtask.
    await page.goto(`/browsers/videos?subtask_id=${loginId}`);
    const videos = page.getByRole('table', { name: 'Browser Video' });
    await shows(videos);
    await shows(page.getByText(`SubTask #${loginId}`, { exact: true }));
    await expect.poll(() => videos.locator('tbody tr').count()).toBe(1);
    const videoRow = videos.locator('tbody tr').first();
    await shows(videoRow.getByText('Login Account', { exact: true }));
    const listed = Number.parseFloat((await (await cellOf(videos, videoRow, 'Duration')).textContent()) ?? '');
    await videoRow.getByRole('button', { name: 'Play' }).click();
    const player = page.getByRole('dialog', { name: /^Video #\d+ · Login Account/ });
    await shows(player);
    const replayed = await playVideo(player);
    expect(replayed.error).toBeNull();
    expect(replayed.readyState).toBeGreaterThanOrEqual(2);
    // The same file: the player's duration is the one listed.
    expect(Math.abs(replayed.duration - listed)).toBeLessThan(0.3);
    expect(Math.abs(replayed.duration - played.duration)).toBeLessThan(0.01);
    await screenshot(page, 'checks-browser-video-play');
    await player.getByRole('button', { name: 'OK', exact: true }).click();
    await player.waitFor({ state: 'detached' });

    // Sub Tasks scoped to the operation: every subtask of the check passed.
    await page.goto(`/tasks/subtasks?operation_id=${operationId}`);
    const subtasks = page.getByRole('table', { name: 'Sub Tasks' });
    await shows(subtasks);
    await shows(page.getByText(`Operation #${operationId}`, { exact: true }));
    await expect.poll(() => subtasks.locator('tbody tr').count()).toBe(3);
    expect(await subtasks.locator('tbody tr').getByText('Done', { exact: true }).count()).toBe(3);

    // Log Place Bet holds the check's typed log; its BrowserLog is the same raw log.
    await page.goto(`/logs/place-bets?subtask_id=${placeBetsId}`);
    const placeLogs = page.getByRole('table', { name: 'Log Place Bet' });
    await shows(placeLogs);
    await expect.poll(() => placeLogs.locator('tbody tr').count()).toBe(1);
    const logRow = rowOf(placeLogs, site.name);
    await shows(logRow.getByText('agent01', { exact: true }));
    await (await cellOf(placeLogs, logRow, 'BrowserLog')).getByRole('button', { name: 'View' }).click();
    const browserLog = page.getByRole('dialog', { name: /^BrowserLog · Log #\d+ · Place Bets/ });
    await shows(browserLog);
    await shows(browserLog.getByRole('table', { name: 'Steps' }));
    await shows(fact(browserLog, 'Process').getByText('Place Bets', { exact: true }));
    await shows(fact(browserLog, 'Finished').getByText('Yes', { exact: true }));
    await shows(browserLog.locator('video'));
    await screenshot(page, 'checks-place-bet-browser-log');
    await browserLog.getByRole('button', { name: 'OK', exact: true }).click();

    expect(console.errors).toEqual([]);
  });

  it("lists the operation's notifications and opening one shows its body and marks it read", async () => {
    expect(checked, 'the check flow test ran first').not.toBeNull();
    const { operationId, siteName } = checked!;
    const page = await asAdmin();
    const console = collectConsoleErrors(page);

    await page.goto('/notifications/notifications');
    const table = page.getByRole('table', { name: 'Notifications' });
    await shows(table);
    await searchTable(page, siteName);
    // One per subtask (3) and one for the task; the operation's own title names only the operation.
    await expect.poll(() => table.locator('tbody tr').count(), { timeout: 15_000 }).toBe(4);
    await shows(rowOf(table, `${siteName}: Place Bets (D4) Done`));
    await shows(rowOf(table, `${siteName}: check passed`));

    await searchTable(page, `Operation ${operationId} done`);
    const row = rowOf(table, `Operation ${operationId} done`);
    await shows(row);
    await shows(row.getByText('Unread', { exact: true }));
    await row.getByRole('button', { name: 'Detail' }).click();
    await page.waitForURL((url) => /^\/notifications\/\d+$/.test(url.pathname));

    await shows(page.getByRole('heading', { name: 'Notification Detail' }));
    expect(await fact(page, 'Title').textContent()).toBe(`Operation ${operationId} done`);
    const body = page.getByTestId('notification-content');
    await shows(body);
    // The body is HTML, rendered: bold operation id and a working link, no markup as text.
    expect(await body.locator('b').first().textContent()).toBe(String(operationId));
    expect(await body.textContent()).not.toContain('<p>');
    await shows(fact(page, 'Status').getByText('Read', { exact: true }));
    await screenshot(page, 'checks-notification-detail');

    // Back on the list it is read.
    await page.goBack();
    await shows(table);
    await searchTable(page, `Operation ${operationId} done`);
    await shows(rowOf(table, `Operation ${operationId} done`).getByText('Read', { exact: true }));

    // The body's link leads to the operation within the console.
    await rowOf(table, `Operation ${operationId} done`).getByRole('button', { name: 'Detail' }).click();
    await shows(body);
    await body.getByRole('link', { name: `Open operation ${operationId}` }).click();
    await page.waitForURL((url) => url.pathname === `/operations/${operationId}`);
    await shows(page.getByRole('heading', { name: `Operation #${operationId}` }));

    expect(console.errors).toEqual([]);
  });
});
