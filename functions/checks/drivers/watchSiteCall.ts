// A driver reads what the site's own page script fetched: it starts watching a call, triggers it
// in the page (navigation, click) and gets the raw answer with its timing. Reading the answer the
// page got, instead of calling the site separately, checks what an agent really sees.
//
// Answers are taken at the CDP Fetch response stage: the response is held until its body is
// copied, because a page that navigates right after a call (a login form) otherwise discards the
// body before `HTTPResponse.text()` can read it.
import type { CDPSession, HTTPRequest, Page } from 'puppeteer-core';
import type { Protocol } from 'puppeteer-core';
import { MalformedResponseError, SessionExpiredError, SiteHttpError } from './errors';

export interface SiteCall {
  /** 'POST /api/d4/bets' */
  call: string;
  status: number;
  /** Parsed JSON body. */
  body: unknown;
  /** ms from the request leaving the page to its answer arriving. */
  ms: number;
}

export interface PendingSiteCall {
  readonly call: string;
  /** Resolves with the answer; rejects on 401 (session), 5xx, invalid JSON or timeout. */
  readonly done: Promise<SiteCall>;
  /** Stops watching (the page went elsewhere), so a later watch of the same call gets the answer. */
  cancel(): void;
}

interface RawAnswer {
  status: number;
  text: string;
}

interface Waiter {
  method: string;
  pathname: string;
  resolve(answer: RawAnswer): void;
}

/** One Fetch-domain tap per page, shared by all watches on it. */
class ResponseTap {
  private readonly waiters = new Set<Waiter>();

  private constructor(private readonly cdp: CDPSession) {
    cdp.on('Fetch.requestPaused', (ev) => {
      this.onPaused(ev).catch(() => {});
    });
  }

  static async attach(page: Page, urlPattern: string): Promise<ResponseTap> {
    const cdp = await page.createCDPSession();
    const tap = new ResponseTap(cdp);
    await cdp.send('Fetch.enable', { patterns: [{ urlPattern, requestStage: 'Response' }] });
    return tap;
  }

  wait(method: string, pathname: string): { answer: Promise<RawAnswer>; cancel(): void } {
    let waiter!: Waiter;
    const answer = new Promise<RawAnswer>((resolve) => {
      waiter = { method, pathname, resolve };
    });
    this.waiters.add(waiter);
    return { answer, cancel: () => this.waiters.delete(waiter) };
  }

  private async onPaused(ev: Protocol.Fetch.RequestPausedEvent): Promise<void> {
    const { requestId, request } = ev;
    const pathname = new URL(request.url).pathname;
    const waiter = [...this.waiters].find((w) => w.method === request.method && w.pathname === pathname);
    try {
      if (waiter && ev.responseStatusCode !== undefined) {
        this.waiters.delete(waiter);
        const { body, base64Encoded } = await this.cdp.send('Fetch.getResponseBody', { requestId });
        waiter.resolve({
          status: ev.responseStatusCode,
          text: base64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body,
        });
      }
    } finally {
      await this.cdp.send('Fetch.continueResponse', { requestId }).catch(() => {});
    }
  }
}

const taps = new WeakMap<Page, Promise<ResponseTap>>();

/** Starts holding the site's API answers on this page; call before the first watch that may race a navigation. */
export function tapSiteCalls(page: Page, urlPattern = '*/api/*'): Promise<ResponseTap> {
  let tap = taps.get(page);
  if (!tap) {
    tap = ResponseTap.attach(page, urlPattern);
    taps.set(page, tap);
  }
  return tap;
}

export async function watchSiteCall(
  page: Page,
  method: string,
  pathname: string,
  timeoutMs: number,
  /** A login call answers 401 for bad credentials; everywhere else 401 means the session is gone. */
  opts: { authCall?: boolean } = {},
): Promise<PendingSiteCall> {
  const call = `${method} ${pathname}`;
  const tap = await tapSiteCalls(page);
  const matches = (req: HTTPRequest) => req.method() === method && new URL(req.url()).pathname === pathname;
  const watchedAt = performance.now();
  let startedAt: number | undefined;
  const onRequest = (req: HTTPRequest) => {
    if (startedAt === undefined && matches(req)) startedAt = performance.now();
  };
  page.on('request', onRequest);
  const { answer, cancel } = tap.wait(method, pathname);
  let timer: NodeJS.Timeout | undefined;
  let abandon!: (err: Error) => void;
  const done = Promise.race([
    answer,
    new Promise<never>((_, reject) => {
      abandon = reject;
      timer = setTimeout(() => reject(new Error(`no answer to ${call} within ${timeoutMs} ms`)), timeoutMs);
    }),
  ])
    .then(({ status, text }): SiteCall => {
      const ms = Math.round(performance.now() - (startedAt ?? watchedAt));
      if (status === 401 && !opts.authCall) throw new SessionExpiredError(call, status);
      if (status >= 500) throw new SiteHttpError(status, call);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (err) {
        throw new MalformedResponseError(call, `invalid JSON (${(err as Error).message})`, status);
      }
      return { call, status, body, ms };
    })
    .finally(() => {
      clearTimeout(timer);
      cancel();
      page.off('request', onRequest);
    });
  // Abandoned watches (the page went elsewhere) must not become unhandled rejections.
  done.catch(() => {});
  return { call, done, cancel: () => abandon(new Error(`stopped watching ${call}`)) };
}
