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
}

/** The requests a hook of the sandbox receiver at `hooks` got, oldest first. */
export const receivedBy = async (hooks: string, hook: string): Promise<ReceivedRequest[]> =>
  (await fetch(`${hooks}/sandbox/hooks/${hook}/requests`)).json();
