import { ErrorCode } from '../../shared/envelope.js';

/**
 * Base of every error the API puts on the wire. Each area extends it with its own
 * (e.g. `SiteNotFoundError`); anything that is not a PatrolError becomes a generic 500
 * and is logged with the request id, never shown.
 */
export class PatrolError extends Error {
  override name = 'PatrolError';
  status = 500;
  code: number = ErrorCode.Internal;
  extra?: Record<string, string>;
  /** Extra response headers, e.g. Retry-After on 429. */
  headers?: Record<string, string>;

  constructor(message: string, options?: { cause?: unknown; extra?: Record<string, string> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    if (options?.extra) this.extra = options.extra;
  }
}

export class BadRequestError extends PatrolError {
  override name = 'BadRequestError';
  override status = 400;
  override code: number = ErrorCode.BadRequest;
}

/** Field-level validation failure: `extra` maps each field path to the spec's message. */
export class ValidationError extends PatrolError {
  override name = 'ValidationError';
  override status = 400;
  override code: number = ErrorCode.Validation;
  constructor(extra: Record<string, string>, message?: string) {
    super(message ?? Object.values(extra)[0] ?? 'Invalid input', { extra });
  }
}

export class UnauthorizedError extends PatrolError {
  override name = 'UnauthorizedError';
  override status = 401;
  override code: number = ErrorCode.Unauthorized;
}

export class ForbiddenError extends PatrolError {
  override name = 'ForbiddenError';
  override status = 403;
  override code: number = ErrorCode.Forbidden;
}

export class NotFoundError extends PatrolError {
  override name = 'NotFoundError';
  override status = 404;
  override code: number = ErrorCode.NotFound;
}

export class ConflictError extends PatrolError {
  override name = 'ConflictError';
  override status = 409;
  override code: number = ErrorCode.Conflict;
}

export class TooManyRequestsError extends PatrolError {
  override name = 'TooManyRequestsError';
  override status = 429;
  override code: number = ErrorCode.TooManyRequests;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.headers = { 'retry-after': String(retryAfterSeconds) };
  }
}
