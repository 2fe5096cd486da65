// A small typed HTTP client for tests: what a caller of the API sees, nothing more.

// biome-ignore lint/suspicious/noExplicitAny: tests read envelope fields without narrowing at every step.
export type Json = any;

export interface ApiReply<T = Json> {
  status: number;
  /** Parsed JSON when the response is JSON, else the text. */
  body: T;
  /** Lower-cased names. */
  headers: Record<string, string>;
}

export interface ApiCallOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent as is, for malformed or oversized bodies; set the content type in `headers`. */
  rawBody?: string | Uint8Array;
}

async function call<T>(baseUrl: string, method: string, path: string, opts: ApiCallOptions = {}): Promise<ApiReply<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | Uint8Array | undefined = opts.rawBody;
  if (body === undefined && opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(new URL(path, baseUrl), { method, headers, body: body as BodyInit | undefined });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      // Left as text: the test sees exactly what came back.
    }
  }
  return { status: res.status, body: parsed as T, headers: Object.fromEntries(res.headers) };
}

export function api(baseUrl: string) {
  return {
    get: <T = Json>(path: string, opts?: ApiCallOptions) => call<T>(baseUrl, 'GET', path, opts),
    post: <T = Json>(path: string, opts?: ApiCallOptions) => call<T>(baseUrl, 'POST', path, opts),
    put: <T = Json>(path: string, opts?: ApiCallOptions) => call<T>(baseUrl, 'PUT', path, opts),
    delete: <T = Json>(path: string, opts?: ApiCallOptions) => call<T>(baseUrl, 'DELETE', path, opts),
  };
}

/** Signs in through POST /api/v1/login and returns the token; throws with the envelope when refused. */
export async function login(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await api(baseUrl).post('/api/v1/login', { body: { username, password } });
  if (res.status !== 200 || typeof res.body?.data?.jwt !== 'string') {
    throw new Error(`login as ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body.data.jwt;
}
