import { randomInt } from 'node:crypto';
import { request as httpRequest } from 'node:http';
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
  /**
   * The local address to connect from, e.g. `127.3.4.5` (all of 127/8 is this machine on Linux):
   * the client address the API sees, as a real client would have it, not a header it could forge.
   */
  from?: string;
}

/** One HTTP/1.1 exchange over node:http, which (unlike fetch) can choose the local address. */
function requestFrom(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  localAddress: string,
): Promise<{ status: number; headers: Record<string, string>; text: string }> {
  // Framed by its length: node:http sends a DELETE's body unframed (no chunked encoding by default),
  // and the server then reads none.
  const framed = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: framed, localAddress, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const flat: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = String(v);
        resolve({ status: res.statusCode ?? 0, headers: flat, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function call<T>(baseUrl: string, method: string, path: string, opts: ApiCallOptions = {}): Promise<ApiReply<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | Uint8Array | undefined = opts.rawBody;
  if (body === undefined && opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  let status: number;
  let text: string;
  let replyHeaders: Record<string, string>;
  if (opts.from) {
    ({
      status,
      text,
      headers: replyHeaders,
    } = await requestFrom(new URL(path, baseUrl), method, headers, body, opts.from));
  } else {
    const res = await fetch(new URL(path, baseUrl), { method, headers, body: body as BodyInit | undefined });
    status = res.status;
    text = await res.text();
    replyHeaders = Object.fromEntries(res.headers);
  }
  let parsed: unknown = text;
  if ((replyHeaders['content-type'] ?? '').includes('json') && text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      // Left as text: the test sees exactly what came back.
    }
  }
  return { status, body: parsed as T, headers: replyHeaders };
}

export function api(baseUrl: string) {
  return {
    get: <T = Json>(path: string, opts?: ApiCallOptions) => call<T>(baseUrl, 'GET', path, opts),
    post: <T = Json>(path: string, opts?: ApiCallOptions) => call<T>(baseUrl, 'POST', path, opts),
    put: <T = Json>(path: string, opts?: ApiCallOptions) => call<T>(baseUrl, 'PUT', path, opts),
    delete: <T = Json>(path: string, opts?: ApiCallOptions) => call<T>(baseUrl, 'DELETE', path, opts),
  };
}

/**
 * The n-th loopback address of a block of 64 second octets starting at `first`: the last octet
 * runs 1..254 (never 0 or 256, which is no address), so n maps to one address each.
 */
export function loopbackAddress(first: number, seq: number): string {
  const n = seq % (64 * 256 * 254);
  const rest = Math.floor(n / 254);
  return `127.${first + (rest >> 8)}.${rest & 255}.${(n % 254) + 1}`;
}

// A random start, not the pid: two test files whose pids share their low bits would share addresses.
let loginSeq = randomInt(0, 1 << 22);
/**
 * Each sign-in from a loopback address of its own (127.129-192.x.y, apart from authKit's uniqueIp):
 * attempts in flight count against their address's login throttle, and test files run in parallel.
 */
const loginAddress = () => loopbackAddress(129, loginSeq++);

/** Signs in through POST /api/v1/login and returns the token; throws with the envelope when refused. */
export async function login(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await api(baseUrl).post('/api/v1/login', { body: { username, password }, from: loginAddress() });
  if (res.status !== 200 || typeof res.body?.data?.jwt !== 'string') {
    throw new Error(`login as ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body.data.jwt;
}
