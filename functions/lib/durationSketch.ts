// A duration sketch that DynamoDB can keep with `ADD` alone: a histogram over fixed log-scale
// buckets, one top-level number attribute per bucket (`ADD` works only on top-level attributes).
// Any number of events add to it without a read, sketches of several days or items merge by
// summing, and a quantile read from it is within ±GROWTH/2 (10 %) of the true value. Rollups of
// check durations (p50/p95) and of bank poll lag (p95) both use it, so they read alike.

/** Each bucket's upper bound is GROWTH times the one before: 1 ms, 1.2 ms, 1.44 ms, … */
const GROWTH = 1.2;
/** 1.2^100 ms ≈ 23 hours: every duration the product measures fits; longer ones share the last bucket. */
const LAST_BUCKET = 100;

/** The bucket a duration falls in: 0 for ≤ 1 ms, then ceil(log_1.2(ms)). */
export function sketchBucket(ms: number): number {
  if (!(ms > 1)) return 0;
  return Math.min(LAST_BUCKET, Math.ceil(Math.log(ms) / Math.log(GROWTH)));
}

/** A bucket's representative value: the geometric middle of its bounds, so the error is symmetric. */
function bucketValue(bucket: number): number {
  if (bucket === 0) return 1;
  return GROWTH ** (bucket - 0.5);
}

/** The attribute that holds a bucket's count on a stored item, under the caller's prefix (e.g. `d_12`). */
export const sketchAttr = (prefix: string, bucket: number): string => `${prefix}${bucket}`;

/** Bucket counts read back from a stored item: every `${prefix}<n>` number attribute. */
export function sketchOf(item: Record<string, unknown>, prefix: string): Map<number, number> {
  const counts = new Map<number, number>();
  for (const [key, value] of Object.entries(item)) {
    if (!key.startsWith(prefix) || typeof value !== 'number') continue;
    const bucket = Number(key.slice(prefix.length));
    if (Number.isInteger(bucket)) counts.set(bucket, value);
  }
  return counts;
}

/** Sums sketches (several days, several items) into one. */
export function mergeSketches(sketches: Iterable<Map<number, number>>): Map<number, number> {
  const merged = new Map<number, number>();
  for (const sketch of sketches) for (const [b, n] of sketch) merged.set(b, (merged.get(b) ?? 0) + n);
  return merged;
}

/** The q-quantile (0 < q ≤ 1) in ms, rounded; null for an empty sketch. */
export function sketchQuantile(sketch: Map<number, number>, q: number): number | null {
  return sketchQuantiles(sketch, [q])[0];
}

/** Several quantiles (ascending q) from one pass over the sorted buckets: e.g. p50 and p95 of a cell. */
export function sketchQuantiles(sketch: Map<number, number>, qs: readonly number[]): (number | null)[] {
  let total = 0;
  for (const n of sketch.values()) total += n;
  const out: (number | null)[] = qs.map(() => null);
  if (total <= 0) return out;
  let seen = 0;
  let next = 0;
  for (const bucket of [...sketch.keys()].sort((a, b) => a - b)) {
    seen += sketch.get(bucket) as number;
    while (next < qs.length && seen >= Math.ceil(qs[next] * total)) out[next++] = Math.round(bucketValue(bucket));
    if (next === qs.length) break;
  }
  return out;
}

/**
 * A sketch as a cumulative histogram over the caller's upper bounds (ms, ascending), as Prometheus
 * keeps one: `counts[i]` is how many fell in buckets whose upper bound (1.2^b ms) is at most
 * `bounds[i]`, so each is within a bucket's width (20 %) of the exact count; `total` is all of them.
 */
export function sketchCumulative(
  sketch: Map<number, number>,
  bounds: readonly number[],
): { counts: number[]; total: number; sumMs: number } {
  const counts = bounds.map(() => 0);
  let total = 0;
  let sumMs = 0;
  for (const [bucket, n] of sketch) {
    if (!(n > 0)) continue;
    total += n;
    sumMs += n * bucketValue(bucket);
    const upper = bucket === 0 ? 1 : GROWTH ** bucket;
    for (let i = 0; i < bounds.length; i++) if (upper <= bounds[i]) counts[i] += n;
  }
  return { counts, total, sumMs };
}
