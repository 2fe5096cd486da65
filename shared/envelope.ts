// The wire envelope (spec section 7): a success carries `data`; a failure never does,
// and carries `request_id`, so the web client can tell them apart without the status.

export const SUCCESS_CODE = 1000;

/** Stable business codes; their statuses and default texts live in the registry (./errors.ts). */
export { ErrorCode } from './errors.js';

export interface ApiSuccess<T> {
  code: typeof SUCCESS_CODE;
  msg: string;
  data: T;
}

export interface ApiFailure {
  code: number;
  msg: string;
  /** Field -> message for validation failures, or other details safe to show. */
  extra?: Record<string, string>;
  request_id: string;
}

export type ApiResponse<T> = ApiSuccess<T> | ApiFailure;

export function isFailure(body: unknown): body is ApiFailure {
  return typeof body === 'object' && body !== null && 'request_id' in body && !('data' in body);
}

export const HEADERS = {
  requestId: 'x-request-id',
  traceId: 'x-trace-id',
  fingerprint: 'x-browser-fingerprint',
  /** Read units a list call consumed; lets the bench report RCUs per page. */
  consumedCapacity: 'x-consumed-rcu',
  /** Inbound bank webhook authentication. */
  apiKey: 'x-api-key',
  /**
   * A list call's hint that the table jumped to its page (not the page after one it showed): the
   * server reads the pages up to it beside the count, instead of looking for a cursor first.
   */
  listJump: 'x-list-jump',
} as const;
