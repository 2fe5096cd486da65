// Why a check stopped. Each error's message is the verdict an operator reads in the subtask's msg,
// so it names what happened on the site, not what the code was doing.

export class CheckError extends Error {
  /** HTTP status the site answered, when it answered. */
  readonly statusCode?: number;
  constructor(message: string, opts: { cause?: unknown; statusCode?: number } = {}) {
    super(message, { cause: opts.cause });
    this.name = 'CheckError';
    this.statusCode = opts.statusCode;
  }
}

export class StepTimeoutError extends CheckError {
  constructor(
    readonly step: string,
    readonly timeoutMs: number,
  ) {
    super(`Timed out after ${timeoutMs} ms at step "${step}": the site did not answer in time`);
    this.name = 'StepTimeoutError';
  }
}

export class LoginFailedError extends CheckError {
  constructor(siteMsg: string, statusCode?: number) {
    super(`Login failed: ${siteMsg}`, { statusCode });
    this.name = 'LoginFailedError';
  }
}

export class SessionExpiredError extends CheckError {
  constructor(where: string, statusCode?: number) {
    super(`Session expired during the check (${where})`, { statusCode });
    this.name = 'SessionExpiredError';
  }
}

export class SiteHttpError extends CheckError {
  constructor(status: number, call: string) {
    super(`Site answered HTTP ${status} to ${call}`, { statusCode: status });
    this.name = 'SiteHttpError';
  }
}

export class MalformedResponseError extends CheckError {
  constructor(call: string, detail: string, statusCode?: number) {
    super(`Malformed response from ${call}: ${detail}`, { statusCode });
    this.name = 'MalformedResponseError';
  }
}

export class BrowserCrashedError extends CheckError {
  constructor(cause: unknown) {
    super(`Browser failed during the check: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'BrowserCrashedError';
  }
}

/** The operator-facing message of anything a check can throw. */
export function checkErrorMessage(err: unknown): string {
  if (err instanceof CheckError) return err.message;
  const text = err instanceof Error ? err.message : String(err);
  // Puppeteer's own timeouts (selectors, navigation) surface as TimeoutError.
  if (err instanceof Error && err.name === 'TimeoutError') return `Timed out: ${text}`;
  if (/Target closed|Session closed|Protocol error|detached|Connection closed/i.test(text))
    return new BrowserCrashedError(err).message;
  return `Check failed: ${text}`;
}
