// The one way the web talks to the API (spec sections 7 and 8): envelope unwrapping, headers,
// timeout, the loading bar, and failure texts. Callers get `data` or an ApiError whose `msg`
// has already been shown (unless `silent`).
import { HEADERS, SUCCESS_CODE } from '@shared/envelope';
import { clearAuth, getToken } from '@/app/auth';
import { API_TIMEOUT_MS } from '@/app/constants';
import { currentPath, LOGIN_PATH, loginPathFor, navigateTo } from '@/app/navigation';
import { toast } from '@/app/toast';
import { t } from '@/i18n';
import { ApiError, NETWORK_CODE, TIMEOUT_CODE } from './ApiError';
import { browserFingerprint, rememberTraceId, storedTraceId } from './clientIdentity';
import { NETWORK_TEXT, TIMEOUT_TEXT, textForBody, textForStatus } from './errorText';
import { beginLoading } from './loadingTracker';

export const API_BASE = '/api/v1';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  method?: Method;
  /** Path below /api/v1, e.g. '/sites'. */
  url: string;
  params?: Record<string, string>;
  data?: unknown;
  /** Shown (translated) when the call succeeds. */
  successTip?: string;
  /** Shown (translated) with the reason when the call fails. */
  failureTip?: string;
  /** Show nothing on failure; the caller handles the ApiError itself. */
  silent?: boolean;
  /** Keep this call out of the top loading bar. */
  skipLoading?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The answer is not in the envelope (the API document): return its body as it is. */
  raw?: boolean;
  /** The answer is a file (a report's CSV or PDF): return its body as a Blob; `onHeaders` sees its headers. */
  blob?: boolean;
  /** Extra request headers, e.g. a list call's jump hint. */
  headers?: Record<string, string>;
  /** Reads the headers of a successful answer (e.g. a dashboard answer's `age`). */
  onHeaders?: (headers: Headers) => void;
}

function buildUrl(url: string, params?: Record<string, string>): string {
  const path = `${API_BASE}${url.startsWith('/') ? url : `/${url}`}`;
  if (!params) return path;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null) search.append(k, v);
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

function buildHeaders(token: string | null, extra: Record<string, string> = {}): Headers {
  const headers = new Headers({ ...extra, 'Content-Type': 'application/json', Accept: 'application/json' });
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const traceId = storedTraceId();
  if (traceId) headers.set(HEADERS.traceId, traceId);
  headers.set(HEADERS.fingerprint, browserFingerprint());
  return headers;
}

/** The answer's body, parsed when it is JSON; a body cut off (an abort, a timeout, the network) throws. */
async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An HTTP error body worth reading: our envelope, or at least a message. */
function failureFromHttp(status: number, body: unknown): ApiError {
  if (isObject(body) && ('msg' in body || 'extra' in body || 'code' in body)) {
    return new ApiError({
      code: typeof body.code === 'number' ? body.code : status,
      msg: textForBody(body),
      extra: isObject(body.extra) ? (body.extra as Record<string, string>) : undefined,
      status,
    });
  }
  if (typeof body === 'string' && body.trim() && body.length < 300) {
    return new ApiError({ code: status, msg: body.trim(), status });
  }
  return new ApiError({ code: status, msg: textForStatus(status), status });
}

/** Spec: a 2xx answer is data unless it has a request_id and no data, is a string, or is empty. */
function failureFromBusiness(status: number, body: unknown): ApiError | null {
  if (isObject(body) && 'data' in body) return null;
  // JSON drops `data: undefined`, so a bare SUCCESS is still a success (e.g. POST /logout).
  if (isObject(body) && body.code === SUCCESS_CODE && !('request_id' in body)) return null;
  if (isObject(body)) {
    return new ApiError({
      code: typeof body.code === 'number' ? body.code : 'UNKNOWN',
      msg: textForBody(body),
      extra: isObject(body.extra) ? (body.extra as Record<string, string>) : undefined,
      status,
    });
  }
  return new ApiError({ code: 'UNKNOWN', msg: textForBody({}), status });
}

function sessionExpired(): void {
  clearAuth();
  const here = currentPath();
  if (!here.startsWith(LOGIN_PATH)) navigateTo(loginPathFor(here), { replace: true });
}

function report(opts: RequestOptions, error: ApiError): void {
  if (opts.silent) return;
  const reason = t(error.msg);
  if (opts.failureTip) toast.error(t(opts.failureTip), reason);
  else toast.error(reason);
}

export async function request<T>(opts: RequestOptions): Promise<T> {
  const method = opts.method ?? 'GET';
  const token = getToken();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs ?? API_TIMEOUT_MS);
  const onCallerAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onCallerAbort);
  const endLoading = opts.skipLoading ? () => {} : beginLoading();

  try {
    let res: Response;
    let body: unknown;
    // The body is read under the same guard as the call: an answer cut off after its headers (a
    // refetch cancelling the one in flight, the timeout, a dropped connection) is that failure,
    // never an empty answer, which reads as "Unknown error".
    try {
      res = await fetch(buildUrl(opts.url, opts.params), {
        method,
        headers: buildHeaders(token, opts.headers),
        body: opts.data === undefined || method === 'GET' ? undefined : JSON.stringify(opts.data),
        signal: controller.signal,
      });
      rememberTraceId(res.headers.get(HEADERS.traceId));
      // A file is read as bytes (a PDF is no text); a refusal is still the envelope.
      body = opts.blob && res.ok ? await res.blob() : await readBody(res);
    } catch (cause) {
      if (opts.signal?.aborted && !timedOut) throw cause; // the caller cancelled (e.g. TanStack Query): not a failure to show
      throw timedOut
        ? new ApiError({ code: TIMEOUT_CODE, msg: TIMEOUT_TEXT, status: 0, cause })
        : new ApiError({ code: NETWORK_CODE, msg: NETWORK_TEXT, status: 0, cause });
    }

    if (!res.ok) {
      const error = failureFromHttp(res.status, body);
      // A 401 on a call made without a token is a wrong login, not an expired session.
      if (res.status === 401 && token) sessionExpired();
      throw error;
    }
    if (opts.raw) return body as T;
    if (opts.blob) {
      opts.onHeaders?.(res.headers);
      return body as T;
    }
    const businessError = failureFromBusiness(res.status, body);
    if (businessError) throw businessError;

    if (opts.successTip) toast.success(t(opts.successTip));
    opts.onHeaders?.(res.headers);
    return (body as { data: T }).data;
  } catch (error) {
    if (error instanceof ApiError) report(opts, error);
    throw error;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCallerAbort);
    endLoading();
  }
}

/** Shorthands; `opts` carries tips and flags. */
export const api = {
  get: <T>(url: string, params?: Record<string, string>, opts?: Omit<RequestOptions, 'url' | 'params' | 'method'>) =>
    request<T>({ ...opts, method: 'GET', url, params }),
  post: <T>(url: string, data?: unknown, opts?: Omit<RequestOptions, 'url' | 'data' | 'method'>) =>
    request<T>({ ...opts, method: 'POST', url, data }),
  put: <T>(url: string, data?: unknown, opts?: Omit<RequestOptions, 'url' | 'data' | 'method'>) =>
    request<T>({ ...opts, method: 'PUT', url, data }),
  delete: <T>(url: string, data?: unknown, opts?: Omit<RequestOptions, 'url' | 'data' | 'method'>) =>
    request<T>({ ...opts, method: 'DELETE', url, data }),
};

export { ApiError, isApiError } from './ApiError';
