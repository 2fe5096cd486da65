import { describe, expect, it } from 'vitest';
import {
  mergeSketches,
  sketchCumulative,
  sketchAttr,
  sketchBucket,
  sketchOf,
  sketchQuantile,
  sketchQuantiles,
} from './durationSketch.js';

function sketchFrom(values: number[]): Map<number, number> {
  const sketch = new Map<number, number>();
  for (const v of values) sketch.set(sketchBucket(v), (sketch.get(sketchBucket(v)) ?? 0) + 1);
  return sketch;
}

describe('durationSketch', () => {
  it('reads several quantiles in one pass as it reads each alone', () => {
    const values = [3, 3, 40, 41, 900, 2_000, 2_100, 60_000];
    const sketch = sketchFrom(values);
    const qs = [0.01, 0.5, 0.5, 0.95, 1];
    // The rank-th value's bucket, read at the bucket's geometric middle (1.2^(b - 0.5)).
    const expected = qs.map((q) => Math.round(1.2 ** (sketchBucket(values[Math.ceil(q * values.length) - 1]) - 0.5)));
    expect(sketchQuantiles(sketch, qs)).toEqual(expected);
    expect(qs.map((q) => sketchQuantile(sketch, q))).toEqual(expected);
    expect(sketchQuantiles(new Map(), [0.5, 0.95])).toEqual([null, null]);
  });

  it('reads p50 and p95 within 10 % of the exact values', () => {
    const values = Array.from({ length: 1000 }, (_, i) => 50 + ((i * 7919) % 1000) * 12); // 50 .. 12 038 ms
    const sorted = [...values].sort((a, b) => a - b);
    const sketch = sketchFrom(values);
    for (const q of [0.5, 0.95]) {
      const exact = sorted[Math.ceil(q * sorted.length) - 1]!;
      const read = sketchQuantile(sketch, q)!;
      expect(Math.abs(read - exact) / exact).toBeLessThanOrEqual(0.1);
    }
  });

  it('answers null for an empty sketch and keeps sub-millisecond values in the first bucket', () => {
    expect(sketchQuantile(new Map(), 0.95)).toBeNull();
    expect(sketchBucket(0)).toBe(0);
    expect(sketchBucket(0.4)).toBe(0);
  });

  it('round-trips through stored attributes and merges by summing', () => {
    const a = sketchFrom([100, 200, 300]);
    const stored: Record<string, unknown> = { pk: 'x', runs: 3 };
    for (const [b, n] of a) stored[sketchAttr('d_', b)] = n;
    expect(sketchOf(stored, 'd_')).toEqual(a);
    const merged = mergeSketches([a, sketchFrom([100])]);
    expect([...merged.values()].reduce((s, n) => s + n, 0)).toBe(4);
    expect(merged.get(sketchBucket(100))).toBe(2);
  });
});

describe('sketchCumulative', () => {
  it('counts each duration under every bound at or above its bucket, within a bucket of the exact count', () => {
    // Away from the bounds: a duration within 20 % below a bound may fall in the bucket that straddles it.
    const durations = [800, 1500, 4000, 9000, 45_000, 400_000];
    const sketch = new Map<number, number>();
    for (const ms of durations) sketch.set(sketchBucket(ms), (sketch.get(sketchBucket(ms)) ?? 0) + 1);
    const bounds = [1000, 2000, 5000, 10_000, 60_000, 300_000];
    const { counts, total, sumMs } = sketchCumulative(sketch, bounds);
    expect(total).toBe(durations.length);
    expect(counts).toEqual(bounds.map((b) => durations.filter((d) => d <= b).length));
    const exactSum = durations.reduce((a, d) => a + d, 0);
    expect(Math.abs(sumMs - exactSum) / exactSum).toBeLessThan(0.1);
  });

  it('is all zeros for an empty sketch', () => {
    expect(sketchCumulative(new Map(), [1000, 2000])).toEqual({ counts: [0, 0], total: 0, sumMs: 0 });
  });
});
