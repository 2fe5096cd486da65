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
      incidents: [],
      bank: {
        accounts_by_status: [],
        stale: 0,
        poll_lag_p95_ms: null,
        polls: 0,
        polls_failed: 0,
        statements: 0,
        unreconciled: 0,
      },
      delivery: { webhook: { sent: 0, failed: 0, paused: 0 }, telegram: { sent: 0, failed: 0 } },
    };
    // As lib/db/storedAnswers.ts stores an answer; an eventually consistent read is 0.5 RCU per 4 KB.
    const stored = gzipSync(JSON.stringify({ body: JSON.stringify(figures), headers: {} })).length + 200;
    const rcu = Math.ceil(stored / 4096) * 0.5;
    expect(rcu).toBeLessThanOrEqual(5);
  });
});
