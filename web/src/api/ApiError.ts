/** Codes for failures that never reached a business answer. */
export const TIMEOUT_CODE = 'ECONNABORTED';
export const NETWORK_CODE = 'ERR_NETWORK';

/** Every failed `request` rejects with one of these; `msg` is already the text shown to users. */
export class ApiError extends Error {
  override name = 'ApiError';
  /** Business code from the envelope, or TIMEOUT_CODE / NETWORK_CODE. */
  readonly code: number | string;
  readonly msg: string;
  readonly extra?: Record<string, string>;
  /** HTTP status; 0 when no response arrived. */
  readonly status: number;

  constructor(init: {
    code: number | string;
    msg: string;
    extra?: Record<string, string>;
    status: number;
    cause?: unknown;
  }) {
    super(init.msg, { cause: init.cause });
    this.code = init.code;
    this.msg = init.msg;
    this.extra = init.extra;
    this.status = init.status;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}
