// Test harness: a stubbed fetch that answers /api/v1 calls from a table of handlers and records
// every call, so a screen test reads like "the server says X; the user sees Y".
import type { Operation, Task } from '@shared/schemas/checks';
import { vi } from 'vitest';
import { jsonResponse, ok } from '@/test/renderApp';

export interface ApiCall {
  method: string;
  path: string;
  params: URLSearchParams;
  body: unknown;
}
type Handler = (call: ApiCall) => unknown | Response | Promise<unknown>;

/** `routes` keys are 'GET /operations/12/tasks'; a handler returns data (wrapped in the envelope) or a Response, or a promise of either (an answer that comes later). */
export function stubApi(routes: Record<string, Handler>) {
  const calls: ApiCall[] = [];
  const stub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const path = url.pathname.replace(/^\/api\/v1/, '');
    const call: ApiCall = {
      method,
      path,
      params: url.searchParams,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const handler = routes[`${method} ${path}`];
    if (!handler) return jsonResponse({ code: 4040, msg: 'Not found.', request_id: 'r' }, 404);
    const out = await handler(call);
    return out instanceof Response ? out : jsonResponse(ok(out));
  });
  vi.stubGlobal('fetch', stub);
  return {
    calls,
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
  };
}

export const serverError = () => jsonResponse({ code: 5000, msg: 'Server error, try later.', request_id: 'r' }, 500);

const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);

export function makeOperation(over: Partial<Operation> = {}): Operation {
  return {
    id: 12,
    name: 1,
    status: 2,
    operator: { nickname: 'Olivia' },
    site: { id: 3, name: 'Lucky 4D' },
    rule_id: null,
    task_total: 2,
    task_done: 1,
    task_failed: 0,
    task_running: 1,
    start_at: T0,
    end_at: null,
    created_at: T0,
    remark: '',
    ...over,
  };
}

export function makeTask(over: Partial<Task> = {}): Task {
  return {
    id: 31,
    operation_id: 12,
    site: { id: 3, name: 'Lucky 4D', url: 'http://sandbox.local' },
    account: { id: 1, user: 'agent01' },
    checkpoints: { points: [{ process: 1, modes: [1] }] },
    status: 2,
    creator: { nickname: 'Olivia' },
    task_total: 3,
    task_done: 1,
    task_failed: 1,
    task_running: 1,
    start_at: T0,
    end_at: null,
    remark: '',
    created_at: T0,
    ...over,
  };
}
