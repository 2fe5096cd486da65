import { ERRORS, ErrorCode } from '../../shared/errors.js';

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
  /**
   * Why, for the audit row only (e.g. a login's 'unknown_username' behind the same text as a wrong
   * password): never put on the wire.
   */
  auditReason?: string;

  constructor(message: string, options?: { cause?: unknown; extra?: Record<string, string> }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    if (options?.extra) this.extra = options.extra;
  }
}

/**
 * The base of a feature's error whose message is its registry entry's text (shared/errors.ts): status,
 * code and text come from the one entry, so a class cannot drift from the code it answers with.
 * `export class SsoUnknownUserError extends registryError('SsoUnknownUser') { override name = '…'; }`
 */
export function registryError<K extends keyof typeof ERRORS>(key: K) {
  const def = ERRORS[key];
  return class extends PatrolError {
    override status: number = def.status;
    override code: number = def.code;
    constructor(options?: { cause?: unknown; extra?: Record<string, string> }) {
      super(def.text, options);
    }
  };
}

export class BadRequestError extends PatrolError {
  override name = 'BadRequestError';
  override status: number = ERRORS.BadRequest.status;
  override code: number = ErrorCode.BadRequest;
}

/** Field-level validation failure: `extra` maps each field path to the spec's message. */
export class ValidationError extends PatrolError {
  override name = 'ValidationError';
  override status: number = ERRORS.Validation.status;
  override code: number = ErrorCode.Validation;
  constructor(extra: Record<string, string>, message?: string) {
    super(message ?? Object.values(extra)[0] ?? 'Invalid input', { extra });
  }
}

export class UnauthorizedError extends PatrolError {
  override name = 'UnauthorizedError';
  override status: number = ERRORS.Unauthorized.status;
  override code: number = ErrorCode.Unauthorized;
}

export class ForbiddenError extends PatrolError {
  override name = 'ForbiddenError';
  override status: number = ERRORS.Forbidden.status;
  override code: number = ErrorCode.Forbidden;
}

export class NotFoundError extends PatrolError {
  override name = 'NotFoundError';
  override status: number = ERRORS.NotFound.status;
  override code: number = ErrorCode.NotFound;
}

export class ConflictError extends PatrolError {
  override name = 'ConflictError';
  override status: number = ERRORS.Conflict.status;
  override code: number = ErrorCode.Conflict;
}

export class TooManyRequestsError extends PatrolError {
  override name = 'TooManyRequestsError';
  override status: number = ERRORS.TooManyRequests.status;
  override code: number = ErrorCode.TooManyRequests;
  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.headers = { 'retry-after': String(retryAfterSeconds) };
  }
}
