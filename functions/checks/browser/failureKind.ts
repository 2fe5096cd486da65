// Which kind of failure stopped a check attempt, for the retry rule (system config
// checker.retry_on). A timeout, a network failure or a 5xx answer is often passing trouble and is
// worth an attempt in a fresh page; anything the page itself did wrong (a refused login, a closed
// draw, an answer that is not JSON, a redirect to a refused address) will most likely do it again.
import type { FailureKind } from '../../../shared/schemas/systemConfig';
import { BrowserCrashedError, CheckError, StepTimeoutError } from '../drivers/errors';

/** Chromium's and Node's words for a request that never got an answer. */
const NETWORK = /net::ERR_|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|socket hang up|does not resolve/i;

export function failureKindOf(err: unknown): FailureKind {
  if (err instanceof StepTimeoutError) return 'timeout';
  if (err instanceof CheckError && err.statusCode !== undefined && err.statusCode >= 500) return 'http5xx';
  // The browser or its connection to the page went away: trouble on our side of the wire, not the site's verdict.
  if (err instanceof BrowserCrashedError) return 'network';
  if (err instanceof CheckError) return 'page_error';
  const name = err instanceof Error ? err.name : '';
  const text = err instanceof Error ? err.message : String(err);
  // Puppeteer's own waits, and a watched call that got no answer in time.
  if (name === 'TimeoutError' || /^no answer to .* within \d+ ms$/.test(text)) return 'timeout';
  if (NETWORK.test(text)) return 'network';
  if (/Target closed|Session closed|Protocol error|detached|Connection closed/i.test(text)) return 'network';
  return 'page_error';
}
