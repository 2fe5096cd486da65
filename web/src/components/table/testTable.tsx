// Test harness: a ResourceTable against a fake /api/v1 list endpoint that applies the real
// list-query protocol (shared/listQuery) to in-memory rows, so tests see what a user would.
import { createQueryClient } from '@/api/queryClient';
import { type StoredAuth, setAuth } from '@/app/auth';
import { ToastHost } from '@/app/toast';
import { i18n } from '@/i18n';
import { operator } from '@/test/renderApp';
import { TestFluentProvider } from '@/test/TestFluentProvider';
import { applyListQuery } from '@shared/applyListQuery';
import { HEADERS } from '@shared/envelope';
import { type ListFields, type ListResult, parseListQuery } from '@shared/listQuery';
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { readPath } from './col';
import { ResourceTable, type ResourceTableProps } from './ResourceTable';
import type { Resource } from './types';

// The machine is shared and Fluent in jsdom is slow: give popups time to appear.
configure({ asyncUtilTimeout: 10_000 });

// jsdom shims (ResizeObserver, matchMedia) live in web/src/test/setup.ts.

export interface FakeServer {
  /** Query params of every list call, in order. */
  calls: URLSearchParams[];
  /** The pages asked for with the jump hint (HEADERS.listJump), in order. */
  jumps: string[];
  last(): URLSearchParams;
}

export interface FakeServerOptions {
  /** Shapes each reply, e.g. the partial total of a list that stopped at its read budget. */
  reply?: (data: ListResult<unknown>) => ListResult<unknown>;
}

export function fakeListServer<T>(
  endpoint: string,
  rows: T[],
  fields: ListFields,
  options: FakeServerOptions = {},
): FakeServer {
  const calls: URLSearchParams[] = [];
  const jumps: string[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== `/api/v1${endpoint}`) {
      return new Response(JSON.stringify({ code: 4040, msg: 'Not found.', request_id: 'r' }), { status: 404 });
    }
    calls.push(url.searchParams);
    if (new Headers(init?.headers).get(HEADERS.listJump) === '1') jumps.push(url.searchParams.get('page') ?? '');
    const listed = applyListQuery(rows, parseListQuery(url.searchParams, fields), readPath) as ListResult<unknown>;
    const data = options.reply ? options.reply(listed) : listed;
    return new Response(JSON.stringify({ code: 1000, msg: 'SUCCESS', data }), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchStub);
  return { calls, jumps, last: () => calls[calls.length - 1] };
}

/** Renders the table as an operator signs in (a viewer's table hides its writes), or as `auth`. */
export function renderTable<T>(
  resource: Resource<T>,
  props: Omit<ResourceTableProps<T>, 'resource'> = {},
  auth: StoredAuth = operator,
) {
  void i18n.changeLanguage('en');
  setAuth(auth);
  const user = userEvent.setup();
  const client = createQueryClient();
  const view = render(
    <TestFluentProvider>
      <QueryClientProvider client={client}>
        <ToastHost />
        <ResourceTable resource={resource} {...props} />
      </QueryClientProvider>
    </TestFluentProvider>,
  );
  return { user, ...view };
}
