import { ErrorCode } from '../../../../shared/errors.js';
import { PatrolError } from '../../errors.js';
import { type ApiMiddleware, apiState } from './apiState.js';

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MB` : `${bytes / 1024} KB`);

export const MAX_BODY_BYTES = 1024 * 1024;

export class PayloadTooLargeError extends PatrolError {
  override name = 'PayloadTooLargeError';
  override status = 413;
  override code: number = ErrorCode.PayloadTooLarge;
}

export class UnsupportedMediaTypeError extends PatrolError {
  override name = 'UnsupportedMediaTypeError';
  override status = 415;
  override code: number = ErrorCode.UnsupportedMediaType;
}

/** application/json and its `+json` relatives, any case (media types are case-insensitive). */
const JSON_TYPE = /^application\/([\w.+-]*\+)?json\b/i;

/** The size of the body in bytes, as sent (base64 bodies are measured decoded). */
export function bodyBytes(body: string, isBase64Encoded: boolean | undefined): number {
  return isBase64Encoded ? Buffer.from(body, 'base64').length : Buffer.byteLength(body, 'utf8');
}

/**
 * The body's envelope before anyone reads it: at most 1 MB (413; API Gateway itself stops at
 * 6 MB) and JSON (415 for anything else). An empty body is left alone: routes without one are
 * the common case, and the body schema says whether one was needed.
 */
export function bodyLimits(maxBytes = MAX_BODY_BYTES): ApiMiddleware {
  return {
    before: (request) => {
      const { body, isBase64Encoded, headers } = request.event;
      if (!body) return;
      const bytes = bodyBytes(body, isBase64Encoded);
      // A route may ask for less (the inbound webhook's 64 KB); never for more.
      const limit = Math.min(apiState(request).route?.maxBodyBytes ?? maxBytes, maxBytes);
      if (bytes > limit) throw new PayloadTooLargeError(`Request body is larger than ${sizeText(limit)}`);
      if (bytes === 0) return;
      if (!JSON_TYPE.test(headers?.['content-type'] ?? '')) {
        throw new UnsupportedMediaTypeError('Request body must be JSON (Content-Type: application/json)');
      }
    },
  };
}
