import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearAuth, getAuth, setAuth } from '@/app/auth';
import { setNavigator } from '@/app/navigation';
import { findToast, jsonResponse, ok, operator, Providers } from '@/test/renderApp';
import { ApiError } from './ApiError';
import { FINGERPRINT_STORAGE_KEY, TRACE_ID_STORAGE_KEY } from './clientIdentity';
import { inFlightCount } from './loadingTracker';
import { request } from './request';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  render(<Providers>{null}</Providers>);
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  setNavigator(null);
  window.history.replaceState(null, '', '/');
});

function sentHeaders(call = 0): Headers {
  return new Headers(fetchMock.mock.calls[call]?.[1]?.headers);
}

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('request', () => {
  it('resolves with the data of the envelope from /api/v1 with query params', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(ok({ id: 7, name: 'alpha' })));
    const data = await request<{ id: number }>({ url: '/sites', params: { page: '2', keyword: 'a b' } });
    expect(data).toEqual({ id: 7, name: 'alpha' });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/v1/sites?page=2&keyword=a+b');
  });

  it('sends JSON, the bearer token and a stable browser fingerprint', async () => {
    setAuth(operator);
    fetchMock.mockImplementation(async () => jsonResponse(ok(null)));
    await request({ method: 'POST', url: '/sites', data: { name: 'x' } });
    await request({ url: '/sites' });
    const first = sentHeaders(0);
    expect(first.get('content-type')).toBe('application/json');
    expect(first.get('authorization')).toBe('Bearer token-operator');
    expect(first.get('x-browser-fingerprint')).toMatch(/^[0-9a-f]{14}$/);
    expect(sentHeaders(1).get('x-browser-fingerprint')).toBe(first.get('x-browser-fingerprint'));
    expect(localStorage.getItem(FINGERPRINT_STORAGE_KEY)).toBe(first.get('x-browser-fingerprint'));
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe('{"name":"x"}');
  });

  it('accepts a SUCCESS answer whose data was left out', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 1000, msg: 'SUCCESS' }));
    await expect(request({ method: 'POST', url: '/logout' })).resolves.toBeUndefined();
  });

  it('returns a raw answer (the API document) as it is, and still fails on an HTTP error', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ openapi: '3.1.0', paths: {} }));
    await expect(request({ url: '/openapi.json', raw: true })).resolves.toEqual({ openapi: '3.1.0', paths: {} });
    fetchMock.mockResolvedValueOnce(
      jsonResponse({ code: 5000, msg: 'Server error, try later.', request_id: 'r' }, 500),
    );
    expect((await failureOf(request({ url: '/openapi.json', raw: true, silent: true }))).status).toBe(500);
  });

  it('sends no authorization header without a stored token', async () => {
    clearAuth();
    fetchMock.mockResolvedValueOnce(jsonResponse(ok(null)));
    await request({ url: '/info' });
    expect(sentHeaders().has('authorization')).toBe(false);
  });

  it('keeps the first trace id a response carries and sends it afterwards', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse(ok(1)))
      .mockResolvedValueOnce(jsonResponse(ok(2), 200, { 'x-trace-id': 'trace-A' }))
      .mockResolvedValueOnce(jsonResponse(ok(3), 200, { 'x-trace-id': 'trace-B' }))
      .mockResolvedValueOnce(jsonResponse(ok(4)));
    await request({ url: '/a' });
    expect(sentHeaders(0).has('x-trace-id')).toBe(false);
    await request({ url: '/b' });
    await request({ url: '/c' });
    await request({ url: '/d' });
    expect(localStorage.getItem(TRACE_ID_STORAGE_KEY)).toBe('trace-A');
    expect(sentHeaders(2).get('x-trace-id')).toBe('trace-A');
    expect(sentHeaders(3).get('x-trace-id')).toBe('trace-A');
  });

  it('gives up after the timeout and tells the user to try later', async () => {
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    const error = await failureOf(request({ url: '/slow', timeoutMs: 20 }));
    expect(error).toMatchObject({ code: 'ECONNABORTED', msg: 'Timeout, try later.', status: 0 });
    expect(await findToast('Timeout, try later.')).toBeInTheDocument();
  });

  /** A 200 whose body never arrives: its stream fails as `cut(signal)` says, once the headers are in. */
  const bodyCutOff = (cut: (signal: AbortSignal, fail: (error: unknown) => void) => void) =>
    fetchMock.mockImplementation(async (_url, init) => {
      const body = new ReadableStream({
        start: (controller) => cut(init?.signal as AbortSignal, (error) => controller.error(error)),
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    });
  const onAbort = (signal: AbortSignal, fail: (error: unknown) => void) =>
    signal.addEventListener('abort', () => fail(new DOMException('aborted', 'AbortError')));

  it('fails quietly when its caller cancels it while the answer is still arriving (a refetch after a save)', async () => {
    bodyCutOff(onAbort);
    const caller = new AbortController();
    const call = request({
      url: '/super/system-config/versions',
      signal: caller.signal,
      failureTip: 'Fetch versions failed.',
    });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    caller.abort();
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DOMException);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryAllByText('Fetch versions failed.')).toHaveLength(0);
    expect(screen.queryAllByText('Unknown error, try later.')).toHaveLength(0);
  });

  it('says Timeout, or Network error, when the answer is cut off after its headers, not Unknown error', async () => {
    bodyCutOff(onAbort);
    expect(await failureOf(request({ url: '/slow-body', timeoutMs: 20 }))).toMatchObject({
      code: 'ECONNABORTED',
      msg: 'Timeout, try later.',
    });
    bodyCutOff((_signal, fail) => setTimeout(() => fail(new TypeError('terminated')), 5));
    expect(await failureOf(request({ url: '/dropped' }))).toMatchObject({
      code: 'ERR_NETWORK',
      msg: 'Network error, try later.',
    });
  });

  it('shows the failure tip with the message of an HTTP error body', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 4040, msg: 'Site not found', request_id: 'r1' }, 404));
    const error = await failureOf(request({ url: '/sites/9', failureTip: 'Fetch sites failed.' }));
    expect(error).toMatchObject({ code: 4040, msg: 'Site not found', status: 404 });
    expect(await findToast('Fetch sites failed.')).toBeInTheDocument();
    expect(await findToast('Site not found')).toBeInTheDocument();
  });

  it('names the HTTP status when the error has no body', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(undefined, 405));
    const error = await failureOf(request({ url: '/sites', method: 'DELETE' }));
    expect(error.msg).toBe('Method Not Allowed');
    expect(await findToast('Method Not Allowed')).toBeInTheDocument();
  });

  it('reports a network error for unnamed statuses without a body and for unreachable servers', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse(undefined, 502))
      .mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect((await failureOf(request({ url: '/a' }))).msg).toBe('Network error, try later.');
    expect(await failureOf(request({ url: '/b' }))).toMatchObject({
      code: 'ERR_NETWORK',
      msg: 'Network error, try later.',
    });
  });

  it('shows the extra texts of a business error, one per line', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse({
        code: 4001,
        msg: 'Validation failed',
        extra: { name: 'Please enter site name', url: 'Please enter site url' },
        request_id: 'r2',
      }),
    );
    const error = await failureOf(request({ method: 'POST', url: '/sites', data: {}, failureTip: 'Add site failed' }));
    expect(error.msg).toBe('Please enter site name\nPlease enter site url');
    expect(error.extra).toEqual({ name: 'Please enter site name', url: 'Please enter site url' });
    expect(await findToast('Add site failed')).toBeInTheDocument();
    expect(await findToast(/Please enter site name\s+Please enter site url/)).toBeInTheDocument();
  });

  it('falls back from extra to msg, to the code text, to unknown', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse({ code: 4090, msg: 'Name taken', request_id: 'r' }))
      .mockResolvedValueOnce(jsonResponse({ code: 4090, msg: '', request_id: 'r' }))
      .mockResolvedValueOnce(jsonResponse({ code: 4999, request_id: 'r' }))
      .mockResolvedValueOnce(jsonResponse('plain text'));
    expect((await failureOf(request({ url: '/a', silent: true }))).msg).toBe('Name taken');
    expect((await failureOf(request({ url: '/b', silent: true }))).msg).toBe('Already exists.');
    expect((await failureOf(request({ url: '/c', silent: true }))).msg).toBe('Unknown error, try later.');
    expect((await failureOf(request({ url: '/d', silent: true }))).msg).toBe('Unknown error, try later.');
  });

  it('shows nothing for a silent call', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse({ code: 4011, msg: 'Wrong username or password', request_id: 'r' }, 401),
    );
    await failureOf(request({ method: 'POST', url: '/login', silent: true, failureTip: 'Login failed' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryAllByText('Login failed')).toHaveLength(0);
    expect(screen.queryAllByText('Wrong username or password')).toHaveLength(0);
  });

  it('shows the success tip of the call site', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(ok({})));
    await request({ method: 'POST', url: '/sites', data: {}, successTip: 'Add site success' });
    expect(await findToast('Add site success')).toBeInTheDocument();
  });

  it('on 401 clears the stored login and sends the user to login with the current path', async () => {
    setAuth(operator);
    window.history.replaceState(null, '', '/sites?page=2');
    const navigate = vi.fn();
    setNavigator(navigate);
    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 4010, msg: 'Token expired', request_id: 'r' }, 401));
    await failureOf(request({ url: '/sites' }));
    expect(getAuth()).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/auth/login?redirect=%2Fsites%3Fpage%3D2', { replace: true });
  });

  it('treats a 401 on a call without a token as a refusal, not an expired session', async () => {
    clearAuth();
    const navigate = vi.fn();
    setNavigator(navigate);
    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 4011, msg: 'Wrong', request_id: 'r' }, 401));
    await failureOf(request({ method: 'POST', url: '/login', silent: true }));
    expect(navigate).not.toHaveBeenCalled();
  });

  it('counts calls for the loading bar unless they skip it', async () => {
    let release: (r: Response) => void = () => {};
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (release = resolve)));
    const polled = request({ url: '/notifications/web', skipLoading: true });
    expect(inFlightCount()).toBe(0);
    release(jsonResponse(ok([])));
    await polled;
    const loaded = request({ url: '/sites' });
    expect(inFlightCount()).toBe(1);
    release(jsonResponse(ok([])));
    await loaded;
    await waitFor(() => expect(inFlightCount()).toBe(0));
  });
});
