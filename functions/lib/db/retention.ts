import type { RetentionKind } from '../../../shared/schemas/systemConfig.js';

/** Seconds a row of a retention kind lives, as configured now. */
export type RetentionSource = (kind: RetentionKind) => Promise<number>;

// The system config is itself stored through the repository, so the repository cannot import it:
// the config feature plugs its cached accessor in here when it loads (systemConfig/getSystemConfig.ts).
let source: RetentionSource | undefined;

export function setRetentionSource(next: RetentionSource): void {
  source = next;
}

/**
 * Seconds a new row of `def` lives: its configured retention kind, else its fixed ttlSeconds,
 * else undefined (kept). A row keeps the expiry it was written with; a changed retention applies
 * to rows written after it (and to older ones when the repair path rewrites them).
 */
export async function ttlSecondsOf(def: {
  type: string;
  retention?: RetentionKind;
  ttlSeconds?: number;
}): Promise<number | undefined> {
  if (!def.retention) return def.ttlSeconds;
  if (!source) {
    throw new Error(
      `${def.type} rows follow the ${def.retention} retention, but no retention source is set: import functions/systemConfig/getSystemConfig.js where the entity is declared`,
    );
  }
  return source(def.retention);
}
