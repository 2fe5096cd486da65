import { timingSafeEqual } from 'node:crypto';
import type { EdgeCheck } from '../lib/http/middlewares/originGate.js';
import { cachedFor } from '../lib/cachedFor.js';
import { config } from '../lib/config.js';
import { secretStageVersion } from '../lib/managedSecret.js';
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

/** A value CloudFront may send, and until when (ms; absent: while it holds its stage). */
interface Accepted {
  value: string;
  until?: number;
}

/**
 * The values CloudFront may send. During a rotation (functions/auth/secretRotation.ts) edges
 * change over within minutes, some sending the new value (AWSPENDING, then AWSCURRENT), some still
 * the old (then AWSPREVIOUS): all three are accepted, the old one for a token's lifetime (12 h)
 * after the new one was made and no longer (issue 43), so an emergency rotation shuts a leaked
 * value out that day, not at the next rotation.
 */
async function readAccepted(): Promise<Accepted[]> {
  const arn = config.originSecretArn;
  if (!arn) return config.originSecret ? [{ value: config.originSecret }] : [];
  const [current, pending, previous] = await Promise.all(
    (['AWSCURRENT', 'AWSPENDING', 'AWSPREVIOUS'] as const).map((stage) => secretStageVersion(arn, stage)),
  );
  const until = current?.createdAt === undefined ? undefined : current.createdAt + config.jwtTtlSeconds * 1000;
  return [
    { value: current?.value },
    { value: pending?.value },
    { value: previous?.value, ...(until !== undefined ? { until } : {}) },
  ].filter((a): a is Accepted => Boolean(a.value));
}

const acceptedAt = (values: Accepted[], given: string, now: number) =>
  values.some((a) => (a.until === undefined || now < a.until) && sameSecret(given, a.value));

let accepted = cachedFor(readAccepted, { ttlMs: CACHE_MS });
let lastReread = 0;

/** Whether this deployment has an origin secret at all: only then does the gate apply. */
export const edgeGated = (): boolean => Boolean(config.originSecretArn || config.originSecret);

/** The API's gate (originGate): undefined locally, where no CloudFront stands in front. */
export function edgeCheck(clock: () => number = Date.now): EdgeCheck | undefined {
  if (!edgeGated()) return undefined;
  return async (headers) => {
    const given = headers[ORIGIN_VERIFY_HEADER];
    if (!given) return false;
    const now = clock();
    if (acceptedAt(await accepted.get(), given, now)) return true;
    // A value newer than this instance's copy (a rotation started since it read): read once more.
    if (now - lastReread < REREAD_MS) return false;
    lastReread = now;
    accepted.invalidate();
    return acceptedAt(await accepted.get(), given, now);
  };
}

/** For tests that change the configuration between cases. */
export function resetOriginSecrets(): void {
  accepted = cachedFor(readAccepted, { ttlMs: CACHE_MS });
  lastReread = 0;
}
