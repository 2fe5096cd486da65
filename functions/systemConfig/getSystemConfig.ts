import { DEFAULT_SYSTEM_CONFIG, type RetentionKind, SystemConfig } from '../../shared/schemas/systemConfig.js';
import { cachedFor } from '../lib/cachedFor.js';
import { setRetentionSource } from '../lib/db/retention.js';
import { logger } from '../lib/logger.js';
import { type SystemConfigStore, systemConfigStore } from './store.js';

/**
 * How long a handler keeps the document before reading it again. Short, so a saved change takes
 * effect everywhere within seconds (every Lambda instance and the local runner have their own
 * copy), long enough that a burst of requests costs one read.
 */
export const SYSTEM_CONFIG_TTL_MS = 5_000;

export interface SystemConfigAccessor {
  get(): Promise<SystemConfig>;
  /** Drops the cached copy (after a save in this process). */
  invalidate(): void;
}

export function createSystemConfigAccessor(
  store: () => SystemConfigStore,
  options: { ttlMs?: number; now?: () => number } = {},
): SystemConfigAccessor {
  return cachedFor(
    async () => {
      const head = await store().head();
      if (!head) return DEFAULT_SYSTEM_CONFIG;
      // Parsed again so settings added since the version was saved get their defaults.
      const parsed = SystemConfig.safeParse(head.document);
      if (parsed.success) return parsed.data;
      logger.error('stored system config no longer validates; using the defaults', {
        version: head.version,
        issues: parsed.error.issues.slice(0, 5),
      });
      return DEFAULT_SYSTEM_CONFIG;
    },
    { ttlMs: options.ttlMs ?? SYSTEM_CONFIG_TTL_MS, now: options.now },
  );
}

const accessor = createSystemConfigAccessor(systemConfigStore);

/** The system config in force, at most SYSTEM_CONFIG_TTL_MS old: the one way handlers read it. */
export const getSystemConfig = (): Promise<SystemConfig> => accessor.get();

/** Forgets this process's copy, so its next read sees a save made here at once. */
export const invalidateSystemConfig = (): void => accessor.invalidate();

/** Seconds a stored row of `kind` lives (for `expires_at`, S3 lifecycle and the local sweeper). */
export async function retentionSeconds(kind: RetentionKind): Promise<number> {
  const { retention_days } = await getSystemConfig();
  return retention_days[kind] * 24 * 3600;
}

// Entities that declare a `retention` kind get their rows' expiry from here (lib/db/retention.ts).
setRetentionSource(retentionSeconds);
