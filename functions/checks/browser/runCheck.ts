// One check = one subtask: a fresh browser context, a recording, the driver's process bounded by
// timeouts, and always a verdict. Whatever the site or the browser does, this resolves (never
// rejects, never hangs) and closes the context, so the engine can always write the subtask's log.
import type { Browser, HTTPRequest, Page } from 'puppeteer-core';
import {
  type CheckOutcome,
  emptyResult,
  type FailedRequest,
  type ProcessResult,
  type ProcessValue,
  type StoredSession,
  type TestModeValue,
} from '../../../shared/schemas/checkResults';
import { createStepRecorder } from '../drivers/createStepRecorder';
import { checkErrorMessage } from '../drivers/errors';
import type {
  DriverContext,
  ProcessHandler,
  ProcessVerdict,
  SiteAccountRef,
  SiteDriver,
  SiteRef,
} from '../drivers/SiteDriver';
import { driverForSite } from '../drivers/siteDriverRegistry';
import type { FailureKind } from '../../../shared/schemas/systemConfig';
import { failureKindOf } from './failureKind';
import { PROXY_ERROR_HEADER } from '../../lib/net/guardedProxy';
import { type CheckContext, openCheckContext } from './launchBrowser';
import { evidenceUrl, redactDeep, redactText } from './redactEvidence';
import { createRecorder, type RecordedVideo, type Recorder, type RecorderKind } from './Recorder';

/** How long the recording keeps running after the check's last step. */
export const RECORDING_TAIL_MS = Number(process.env.RECORDING_TAIL_MS ?? 1200);

export interface RunCheckOptions<P extends ProcessValue> {
  browser: Browser;
  site: SiteRef;
  account: SiteAccountRef;
  mode: TestModeValue;
  process: P;
  /** Stored session of the account, reused when still valid. */
  session?: StoredSession;
  /** Bound of the whole check: past it the check ends with success false. */
  timeoutMs: number;
  /** Bound of each step (navigation or call); default min(15 s, timeoutMs). */
  stepTimeoutMs?: number;
  /** Record a video (default true). */
  record?: boolean;
  recorder?: RecorderKind | 'auto';
  /** Default: the registry's driver for the site. */
  driver?: SiteDriver;
  viewport?: { width: number; height: number };
  /** Hosts the check may reach although private; default config.allowedPrivateHosts (ALLOWED_PRIVATE_HOSTS). */
  allowedHosts?: readonly string[];
  /** Values that must never appear in the evidence besides the account's password (which always is one). */
  secrets?: readonly string[];
  /**
   * A context the caller opened already (openCheckContext on `browser`, e.g. while it claimed the
   * subtask); the check takes it over and closes it. Default: the check opens its own.
   */
  opened?: Promise<CheckContext>;
}

/** The session a check returns and accepts; the engine stores it encrypted per account. */
export type CheckSession = StoredSession;

export interface RunCheckResult<P extends ProcessValue> {
  outcome: CheckOutcome<P>;
  video?: RecordedVideo;
  /** PNG of the last page, for failed checks only. */
  screenshot?: Buffer;
}

class CheckTimeoutError extends Error {}

function bounded<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  const limit = deadline(ms, message);
  return raceDeadline(work, limit);
}

interface Deadline {
  expired: Promise<never>;
  clear(): void;
}

/** A timer that rejects with `message` after `ms`; set before the work it bounds starts its own timers. */
function deadline(ms: number, message: string): Deadline {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeoutError(message)), ms);
  });
  expired.catch(() => {});
  return { expired, clear: () => clearTimeout(timer) };
}

function raceDeadline<T>(work: Promise<T>, limit: Deadline): Promise<T> {
  work.catch(() => {});
  return Promise.race([work, limit.expired]).finally(limit.clear);
}

export async function runCheck<P extends ProcessValue>(opts: RunCheckOptions<P>): Promise<RunCheckResult<P>> {
  const started = performance.now();
  const { process, mode } = opts;
  const totalTimeoutMs = opts.timeoutMs;
  const timeoutMs = Math.min(opts.stepTimeoutMs ?? 15_000, totalTimeoutMs);
  const result = emptyResult(process);
  const { step, steps } = createStepRecorder(timeoutMs);
  const consoleErrors: string[] = [];
  const failedRequests: FailedRequest[] = [];
  let kind: FailureKind | undefined;
  let network: ReturnType<typeof watchRequests> | undefined;
  let check: CheckContext | undefined;
  let recorder: Recorder | undefined;
  let verdict: ProcessVerdict;
  let video: RecordedVideo | undefined;
  let screenshot: Buffer | undefined;

  // The whole-check bound runs from the check's start: opening the context and starting the
  // recording spend the same time budget as the site's steps. It is set before any step's timer,
  // so a step whose own timeout equals the bound loses the tie to it.
  const whole = deadline(totalTimeoutMs, `Check timed out after ${totalTimeoutMs} ms (whole check)`);
  const opening = opts.opened ?? openCheckContext(opts.browser, { allowedHosts: opts.allowedHosts });
  opening.catch(() => {});
  // Set once the check stops waiting on its body, which may still be opening or starting things.
  let over = false;
  const body = async (): Promise<ProcessVerdict> => {
    check = await step('open browser context', () => opening);
    const page = check.page;
    watchConsole(page, consoleErrors);
    network = watchRequests(page, failedRequests);
    await page.setViewport(opts.viewport ?? { width: 1280, height: 720 });
    page.setDefaultTimeout(timeoutMs);
    if (opts.record !== false) {
      const rec = createRecorder(opts.recorder ?? 'auto');
      // A check without a video is still a check: a recorder failure only costs the video.
      // A recording that starts after the check gave up is stopped at once, not left running.
      const recording = await step('start recording', () => rec.start(page)).then(
        () => true,
        () => false,
      );
      if (recording && over) void rec.stop();
      else if (recording) recorder = rec;
    }
    const driver = opts.driver ?? driverForSite(opts.site);
    const ctx: DriverContext = {
      page,
      site: opts.site,
      account: opts.account,
      mode,
      session: opts.session,
      timeoutMs,
      step,
    };
    const handler = driver.processes[process] as ProcessHandler<P>;
    return handler(ctx, result);
  };
  try {
    verdict = await raceDeadline(body(), whole);
    // A driver's verdict without an exception is the page's own answer (a closed draw, a refused login).
    if (!verdict.success) kind = 'page_error';
  } catch (err) {
    verdict = { success: false, msg: err instanceof CheckTimeoutError ? err.message : checkErrorMessage(err) };
    kind = err instanceof CheckTimeoutError ? 'timeout' : failureKindOf(err);
  } finally {
    over = true;
  }

  // A site that sends the browser to a private address (a redirect, a subresource, a rebinding
  // name) fails its check with the address named, whatever the driver made of the page it got.
  if (check) await bounded(check.reported(), 5000, 'read the refusals').catch(() => {});
  const refused = check?.refused() ?? [];
  if (refused.length > 0) {
    const first = refused[0];
    verdict = {
      success: false,
      msg: `Refused to open ${first.target}: ${first.reason}${refused.length > 1 ? ` (and ${refused.length - 1} more)` : ''}`,
    };
    // Where the site sends the browser is its own doing, and it will send it there again.
    kind = 'page_error';
  }

  // The proxy resolves names for Chromium, which then only sees a failed tunnel: say what happened.
  const siteHost = safeHostname(opts.site.url);
  // A page that never loaded fails whatever step waited for it: the network is why.
  if (!verdict.success && refused.length === 0 && kind !== 'http5xx' && network?.navigationUnanswered())
    kind = 'network';
  if (!verdict.success && refused.length === 0 && siteHost && check?.unresolved().includes(siteHost)) {
    verdict = { ...verdict, msg: `Check failed: the site address ${siteHost} does not resolve` };
    kind = 'network';
  }

  if (!verdict.success && check) {
    screenshot = await bounded(check.page.screenshot({ type: 'png' }), 5000, 'screenshot').then(
      (png) => Buffer.from(png),
      () => undefined,
    );
  }
  if (recorder) {
    // Hold the last page on screen for a moment: a check that ends in a blink leaves a video where
    // the outcome cannot be read, and that final page is the evidence an operator looks for.
    await new Promise((r) => setTimeout(r, RECORDING_TAIL_MS));
    video = await bounded(recorder.stop(), 15_000, 'stop recording').catch(() => undefined);
  }
  if (check) await bounded(check.close(), 5000, 'close context').catch(() => {});
  // A context that opened after its check gave up on it is closed when it arrives, not left open in the browser.
  else void opening.then((late) => late.close()).catch(() => {});

  fillFailure(result, verdict);
  // What the check typed or signed in with never goes into what is kept and shown.
  const secrets = [
    opts.account.pwd,
    ...(opts.secrets ?? []),
    ...[opts.session, verdict.session].flatMap((s) => (s ? [s.token, ...s.cookies.map((c) => c.value)] : [])),
  ].filter((v): v is string => typeof v === 'string' && v.length > 0);
  const outcome: CheckOutcome<P> = {
    success: verdict.success,
    msg: redactText(verdict.msg, secrets),
    process,
    mode,
    result: redactDeep(result, secrets),
    steps: steps.map((st) => (st.detail ? { ...st, detail: redactText(st.detail, secrets) } : st)),
    // Redacted whole, then cut: a secret that crosses the cut is still found (issue 43).
    consoleErrors: consoleErrors.map((text) => redactText(text, secrets).slice(0, CONSOLE_TEXT_MAX)),
    failedRequests: failedRequests.map((r) => ({
      ...r,
      url: evidenceUrl(r.url, secrets),
      ...(r.error ? { error: redactText(r.error, secrets) } : {}),
    })),
    ...(verdict.success ? {} : { failureKind: kind ?? 'page_error' }),
    durationMs: Math.round(performance.now() - started),
    ...(verdict.session ? { session: verdict.session } : {}),
  };
  return { outcome, video, screenshot };
}

function safeHostname(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

/** A failed check's log row says why in its own text field. */
function fillFailure(result: ProcessResult, verdict: ProcessVerdict): void {
  if (verdict.success) return;
  if ('description' in result && !result.description) result.description = verdict.msg;
  if ('msg' in result && !result.msg) result.msg = verdict.msg;
  if ('result' in result && result.result && typeof result.result === 'object' && 'message' in result.result)
    if (!result.result.message) result.result.message = verdict.msg;
}

/**
 * Requests with no answer, or answered 4xx/5xx: the network part of a failure's evidence. Answers
 * whether a page load (a navigation) got no answer from the site, which makes a failure a network one.
 */
function watchRequests(page: Page, into: FailedRequest[]): { navigationUnanswered(): boolean } {
  const sentAt = new WeakMap<HTTPRequest, number>();
  let unanswered = false;
  const keep = (req: HTTPRequest, status: number | null, error?: string) => {
    if (status === null && req.isNavigationRequest()) unanswered = true;
    // A page that retries in a loop must not grow the evidence without bound.
    if (into.length >= 50) return;
    const ms = Math.round(performance.now() - (sentAt.get(req) ?? performance.now()));
    into.push({ method: req.method(), url: req.url(), status, ...(error ? { error } : {}), ms });
  };
  const proxyMade = new WeakSet<HTTPRequest>();
  page.on('request', (req) => sentAt.set(req, performance.now()));
  page.on('requestfailed', (req) => {
    if (!proxyMade.has(req)) keep(req, null, req.failure()?.errorText ?? 'failed');
  });
  page.on('response', (res) => {
    const proxyError = res.headers()[PROXY_ERROR_HEADER];
    if (proxyError) {
      // Our guard proxy's 502: the site itself never answered.
      proxyMade.add(res.request());
      keep(res.request(), null, `no answer from the site (${proxyError})`);
    } else if (res.status() >= 400) keep(res.request(), res.status());
  });
  return { navigationUnanswered: () => unanswered };
}

/** A console text as kept in the evidence, cut after redaction. */
const CONSOLE_TEXT_MAX = 500;
/**
 * A console text as held until the check ends: long enough that a secret crossing CONSOLE_TEXT_MAX is
 * whole when it is redacted; bounded, as a page may log megabytes.
 */
const CONSOLE_TEXT_HELD = 16_384;

function watchConsole(page: Page, into: string[]): void {
  const keep = (text: string) => {
    // A page that loops on errors must not grow the raw log without bound.
    if (into.length < 50) into.push(text.slice(0, CONSOLE_TEXT_HELD));
  };
  page.on('console', (msg) => {
    if (msg.type() === 'error') keep(msg.text());
  });
  page.on('pageerror', (err) => keep(`pageerror: ${err instanceof Error ? err.message : String(err)}`));
}
