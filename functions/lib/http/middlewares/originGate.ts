import { ERRORS, ErrorCode } from '../../../../shared/errors.js';
import { PatrolError } from '../../errors.js';
import type { ApiMiddleware } from './apiState.js';

export class NotThroughEdgeError extends PatrolError {
  override name = 'NotThroughEdgeError';
  override status: number = ERRORS.NotThroughEdge.status;
  override code: number = ErrorCode.NotThroughEdge;
}

/**
 * Whether a request carries the secret header the stage's CloudFront adds; undefined where no
 * gate applies (locally, where the server itself is the only way in).
 */
export type EdgeCheck = (headers: Record<string, string | undefined>) => Promise<boolean>;

/**
 * Refuses, before any route runs, a request that did not come through CloudFront: in the cloud
 * the API's own address is public (execute-api, or the regional custom domain behind
 * CloudFront), and a caller there would skip the WAF. After this gate every request in the cloud
 * came through CloudFront, which is what lets clientIp believe CloudFront's viewer address.
 */
export function originGate(check: EdgeCheck | undefined): ApiMiddleware {
  return {
    before: async ({ event }) => {
      if (!check) return;
      if (!(await check((event.headers ?? {}) as Record<string, string | undefined>))) {
        throw new NotThroughEdgeError('Requests reach the API through the console address only');
      }
    },
  };
}
