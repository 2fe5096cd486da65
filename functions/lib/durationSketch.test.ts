import { describe, expect, it } from 'vitest';
import { mergeSketches, sketchAttr, sketchBucket, sketchOf, sketchQuantile } from './durationSketch.js';

function sketchFrom(values: number[]): Map<number, number> {
  const sketch = new Map<number, number>();
  for (const v of values) sketch.set(sketchBucket(v), (sketch.get(sketchBucket(v)) ?? 0) + 1);
  return sketch;
}

describe('durationSketch', () => {
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
