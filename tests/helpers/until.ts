/**
 * Reads until `ok` holds, every `everyMs`, for at most `ms`; the timeout names what was awaited and
 * the last value read. For state the stack reaches in the background (a delivery, an operation's end).
 */
export async function until<T>(
  what: string,
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  { ms = 30_000, everyMs = 250 }: { ms?: number; everyMs?: number } = {},
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const last = await read();
    if (ok(last)) return last;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(last).slice(0, 1000)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** What the sandbox webhook receiver recorded of one request (scripts/sandbox/webhook/server.ts). */
export interface ReceivedRequest {
  headers: Record<string, string>;
  body: string;
  status: number;
  /** A repeat of a message (its webhook-id) the hook had accepted: answered 200, not taken again. */
  duplicate: boolean;
}

/** The requests a hook of the sandbox receiver at `hooks` got, oldest first. */
export const receivedBy = async (hooks: string, hook: string): Promise<ReceivedRequest[]> =>
  (await fetch(`${hooks}/sandbox/hooks/${hook}/requests`)).json();

/** The messages a hook accepted (2xx, the first request of each webhook-id), oldest first. */
export const acceptedBy = async (hooks: string, hook: string): Promise<ReceivedRequest[]> =>
  (await fetch(`${hooks}/sandbox/hooks/${hook}/accepted`)).json();

/**
 * Waits, if need be, until the current fixed window of `windowSeconds` (functions/lib/rateLimit.ts:
 * windows start at multiples of their length since the epoch) has `needSeconds` left, so a burst that
 * counts to a limit is not split between two windows. The stack runs on this machine's clock.
 */
export async function withinOneWindow(windowSeconds: number, needSeconds = 20): Promise<void> {
  const left = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000));
  if (left < needSeconds * 1000) await new Promise((r) => setTimeout(r, left + 50));
}
