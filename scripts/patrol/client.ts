// The public API as the patrol command calls it: PATROL_URL (the console's address; /api/v1 is
// added unless given) and PATROL_TOKEN (an API token, `pat_…`). Answers are the API's envelope
// (docs/api.md): `data` on success, `{code, msg, extra}` on failure, thrown as an ApiError.

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }

  /** The API's message with the fields it names (`url: Please give the full address…`). */
  describe(): string {
    const fields = this.extra && typeof this.extra === 'object' ? Object.entries(this.extra) : [];
    const named = fields.map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('; ');
    return `${this.message} (HTTP ${this.status}${this.code ? `, code ${this.code}` : ''})${named ? `: ${named}` : ''}`;
  }
}

export interface PatrolApi {
  get<T>(path: string): Promise<T>;
  send<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T>;
  /** Every row of a list route (pages of the list protocol, `page_size` 500). */
  listAll<T>(path: string): Promise<T[]>;
  /** The API's base, `…/api/v1`, for the schema's address. */
  readonly base: string;
}

const PAGE = 500;
/** Retry-After waits longer than this are reported, not waited out. */
const MAX_RETRY_WAIT_S = 30;

export function patrolApi(url: string, token: string, fetchFn: typeof fetch = fetch): PatrolApi {
  const base = url.replace(/\/+$/, '').replace(/(\/api\/v1)?$/, '/api/v1');
  async function call<T>(method: string, path: string, body?: unknown, attempt = 1): Promise<T> {
    let res: Response;
    try {
      res = await fetchFn(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
    } catch (error) {
      throw new ApiError(0, undefined, `${method} ${base}${path} did not answer: ${(error as Error).message}`);
    }
    // A short rate-limit wait (the API's per-user budgets) is waited out; a long one is the caller's to see.
    const wait = Number(res.headers.get('retry-after'));
    if (res.status === 429 && attempt < 4 && wait > 0 && wait <= MAX_RETRY_WAIT_S) {
      await res.body?.cancel();
      await new Promise((r) => setTimeout(r, wait * 1000));
      return call(method, path, body, attempt + 1);
    }
    const text = await res.text();
    let envelope: { code?: number; msg?: string; data?: unknown; extra?: Record<string, unknown> } | undefined;
    try {
      envelope = JSON.parse(text);
    } catch {
      envelope = undefined;
    }
    if (!res.ok || !envelope || envelope.code !== 1000)
      throw new ApiError(
        res.status,
        envelope?.code,
        envelope?.msg || text.slice(0, 200) || res.statusText,
        envelope?.extra,
      );
    return envelope.data as T;
  }
  return {
    base,
    get: (path) => call('GET', path),
    send: (method, path, body) => call(method, path, body),
    async listAll<T>(path: string) {
      const rows: T[] = [];
      for (let page = 1; ; page++) {
        const sep = path.includes('?') ? '&' : '?';
        const out = await call<{ result: T[]; total_count: number }>(
          'GET',
          `${path}${sep}page=${page}&page_size=${PAGE}`,
        );
        rows.push(...out.result);
        if (out.result.length < PAGE || rows.length >= out.total_count) return rows;
      }
    },
  };
}
