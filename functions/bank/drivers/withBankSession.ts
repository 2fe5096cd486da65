// Session reuse between polls. Signing in to a bank portal is slow and banks lock logins that sign
// in too often, so a poll runs on the session kept from the last one and signs in only when there
// is none, it belongs to another user, it has passed its end, or the portal says it expired.
import type { BankDriver, BankDriverContext, BankSession } from './bankDriver';
import { BankSessionExpiredError } from './errors';

export interface SessionRun<T> {
  value: T;
  /** The session the work ran on: store it for the next poll (it is new when `loggedIn`). */
  session: BankSession;
  /** True when this run signed in (no usable session, or the kept one expired). */
  loggedIn: boolean;
}

/** A kept session worth trying: same bank and user, not past the end the portal announced. */
export function isSessionUsable(
  driver: BankDriver,
  ctx: BankDriverContext,
  session: BankSession | undefined,
  now = Date.now(),
): session is BankSession {
  if (!session) return false;
  if (session.bank !== driver.bank || session.user !== ctx.credentials.user) return false;
  return session.expires_at === undefined || session.expires_at > now;
}

/**
 * Runs `work` on the kept session, or on a new login. When the kept session turns out expired the
 * driver signs in once more and `work` runs again from the start (so `work` must be a read).
 * A fresh session that expires at once is the portal's fault: that error propagates.
 */
export async function withBankSession<T>(
  driver: BankDriver,
  ctx: BankDriverContext,
  kept: BankSession | undefined,
  work: (session: BankSession) => Promise<T>,
): Promise<SessionRun<T>> {
  if (isSessionUsable(driver, ctx, kept)) {
    try {
      return { value: await work(kept), session: kept, loggedIn: false };
    } catch (err) {
      if (!(err instanceof BankSessionExpiredError)) throw err;
    }
  }
  const session = await driver.login(ctx);
  return { value: await work(session), session, loggedIn: true };
}
