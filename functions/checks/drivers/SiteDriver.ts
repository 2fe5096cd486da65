// The contract between the check engine and a site. A driver knows one kind of site: how to sign
// in and how to perform each of the eight function points in its pages. The engine never touches
// a page itself; it hands a driver a fresh page and gets back a typed result it can store.
import type { Page } from 'puppeteer-core';
import type { ProcessResult, ProcessValue, StoredSession, TestModeValue } from '../../../shared/schemas/checkResults';
import type { StepFn } from './createStepRecorder';

export interface SiteRef {
  /** Base URL of the site, e.g. https://agent.example.com (a trailing slash is tolerated). */
  url: string;
  id?: number;
  name?: string;
}

export interface SiteAccountRef {
  user: string;
  /** Plain password, decrypted by the engine just for this check; never log it. */
  pwd: string;
}

export interface DriverContext {
  /** A page in a browser context of its own (cookies of other checks are not visible). */
  page: Page;
  site: SiteRef;
  account: SiteAccountRef;
  /** Test mode: 1 D4, 3 TT. */
  mode: TestModeValue;
  /** A session kept from an earlier login of this account; the driver may reuse it instead of signing in. */
  session?: StoredSession;
  /** Bound of one step (navigation or call). */
  timeoutMs: number;
  /** Runs and times one navigation or call; see createStepRecorder. */
  step: StepFn;
}

/** What a process handler decides. Technical failures are thrown (see errors.ts) instead. */
export interface ProcessVerdict {
  success: boolean;
  msg: string;
  /** The session the check signed in with, to store for the account (new login or reused one). */
  session?: StoredSession;
}

/**
 * Performs one function point. It fills `result` (pre-filled by `emptyResult`) as it learns things,
 * so a check that fails half-way still reports what it saw.
 */
export type ProcessHandler<P extends ProcessValue> = (
  ctx: DriverContext,
  result: ProcessResult<P>,
) => Promise<ProcessVerdict>;

export interface SiteDriver {
  /** Stable name, shown in logs. */
  readonly name: string;
  readonly processes: { readonly [P in ProcessValue]: ProcessHandler<P> };
}
