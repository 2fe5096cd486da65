import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type CheckCellFigures, checkCells, checkRows, DURATION_BOUNDS_S, type MetricsFigures } from './figures.js';

/** A fixed sequence of pseudo-random whole numbers below n (no flakiness, the entropy of real counts). */
function numbers(seed: number) {
  let x = seed;
  return (n: number) => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x % n;
  };
}

/** 100 sites × 8 processes × 2 modes, each cell with a week of counts and a spread of durations. */
function bigCells(): CheckCellFigures[] {
  const n = numbers(7);
  const cells: CheckCellFigures[] = [];
  for (let s = 1; s <= 100; s++)
    for (let process = 1; process <= 8; process++)
      for (const mode of [1, 3]) {
        // A check's passes fall in a few neighbouring buckets (here 3 of the 10, at worst the last ones).
        const from = n(DURATION_BOUNDS_S.length - 2);
        const durations = [...DURATION_BOUNDS_S, Number.POSITIVE_INFINITY].map((_, i) =>
          i >= from && i < from + 3 ? n(700) : 0,
        );
        cells.push({
          site_id: 1000 + s,
          site: `Agent site ${s} of the Yangon group`,
          process,
          mode,
          runs: n(2100),
          passed: n(2000),
          failed: n(80),
          flaky: n(30),
          degraded: n(15),
          durations,
          duration_sum_s: n(90_000),
        });
      }
  return cells;
}

/** Everything but the checks, as on a busy day: an incident per tenth cell, both banks, four queues. */
function busyRest(): Omit<MetricsFigures, 'made_at' | 'sites' | 'checks'> {
  const n = numbers(11);
  return {
    incidents: [
      ...Array.from({ length: 160 }, (_, i) => ({
        kind: 'check' as const,
        site_id: 1001 + (i % 100),
        site: `Agent site ${1 + (i % 100)} of the Yangon group`,
        process: 1 + (i % 8),
        mode: 1,
        severity: 'warning',
        status: 1 + (i % 3),
        count: 1,
      })),
      { kind: 'bank' as const, bank: 1, severity: 'critical', status: 1, count: 3 },
    ],
    banks: [1, 2].map((bank) => ({
      bank,
      accounts_by_status: [1, 2, 3, 9, 99].map((status) => ({ status, count: n(400) })),
      stale: n(20),
      poll_lag_p95_ms: n(90_000),
      polls: n(900_000),
      polls_failed: n(9_000),
      statements: n(50_000),
      unreconciled: n(30),
    })),
    delivery: {
      webhook: { sent: n(50_000), failed: n(500), paused: n(5) },
      telegram: { sent: n(9_000), failed: n(90) },
    },
    queues: ['check', 'notify', 'bank', 'followUp'].map((queue) => ({ queue, visible: n(5000), in_flight: n(200) })),
  };
}

describe('metrics figures', () => {
  it('stores check cells as rows and reads them back unchanged', () => {
    const cells = bigCells();
    const rows = checkRows(cells);
    expect(rows.sites).toHaveLength(100);
    expect(checkCells(rows)).toEqual(cells);
  });

  it('keeps 100 sites × 16 cells in a record a scrape reads for at most 5 read units', () => {
    const figures: MetricsFigures = {
      made_at: 1_700_000_000_000,
      ...checkRows(bigCells()),
      ...busyRest(),
    };
    // As lib/db/storedAnswers.ts stores an answer; an eventually consistent read is 0.5 RCU per 4 KB.
    const stored = gzipSync(JSON.stringify({ body: JSON.stringify(figures), headers: {} })).length + 200;
    const rcu = Math.ceil(stored / 4096) * 0.5;
    expect(rcu).toBeLessThanOrEqual(5);
  });
});
