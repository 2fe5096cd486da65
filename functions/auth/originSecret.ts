import { timingSafeEqual } from 'node:crypto';
import type { EdgeCheck } from '../lib/http/middlewares/originGate.js';
import { cachedFor } from '../lib/cachedFor.js';
import { config } from '../lib/config.js';
import { secretStageValue } from '../lib/managedSecret.js';
import { ORIGIN_VERIFY_HEADER } from './clientIp.js';

/** How long an instance trusts the values it read; a rotation keeps the old value valid longer. */
const CACHE_MS = 5 * 60_000;
/** A value it does not know makes an instance read again at most this often (direct callers guess). */
const REREAD_MS = 30_000;

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The values CloudFront may send. During a rotation (functions/auth/secretRotation.ts) edges
 * change over within minutes, some sending the new value (AWSPENDING, then AWSCURRENT), some still
 * the old (then AWSPREVIOUS): all three are accepted.
 */
async function readAccepted(): Promise<string[]> {
  const arn = config.originSecretArn;
  if (!arn) return config.originSecret ? [config.originSecret] : [];
  const values = await Promise.all(
    (['AWSCURRENT', 'AWSPENDING', 'AWSPREVIOUS'] as const).map((stage) => secretStageValue(arn, stage)),
  );
  return values.filter((v): v is string => Boolean(v));
}

let accepted = cachedFor(readAccepted, { ttlMs: CACHE_MS });
let lastReread = 0;

/** Whether this deployment has an origin secret at all: only then does the gate apply. */
export const edgeGated = (): boolean => Boolean(config.originSecretArn || config.originSecret);

/** The API's gate (originGate): undefined locally, where no CloudFront stands in front. */
export function edgeCheck(): EdgeCheck | undefined {
  if (!edgeGated()) return undefined;
  return async (headers) => {
    const given = headers[ORIGIN_VERIFY_HEADER];
    if (!given) return false;
    const values = await accepted.get();
    if (values.some((v) => sameSecret(given, v))) return true;
    // A value newer than this instance's copy (a rotation started since it read): read once more.
    if (Date.now() - lastReread < REREAD_MS) return false;
    lastReread = Date.now();
    accepted.invalidate();
    return (await accepted.get()).some((v) => sameSecret(given, v));
  };
}

/** For tests that change the configuration between cases. */
export function resetOriginSecrets(): void {
  accepted = cachedFor(readAccepted, { ttlMs: CACHE_MS });
  lastReread = 0;
}
