import { describe, expect, it } from 'vitest';
import {
  type HeatmapCell,
  heatmapCells,
  heatmapOf,
  type ScorecardRow,
  scorecardOf,
  scorecardRows,
} from './dashboard.js';

describe('the heatmap by columns', () => {
  const dates = ['2026-11-25', '2026-11-26', '2026-11-27'];
  const cells: HeatmapCell[] = [
    { site_id: 12, date: '2026-11-27', runs: 9, failed: 1, flaky: 2, degraded: 0 },
    { site_id: 3, date: '2026-11-25', runs: 4, failed: 0, flaky: 0, degraded: 1 },
    { site_id: 12, date: '2026-11-25', runs: 5, failed: 5, flaky: 0, degraded: 0 },
  ];

  it('sends one number per day in each of a site, zeros on days without runs, sites by id', () => {
    expect(heatmapOf(cells, dates)).toEqual({
      dates,
      sites: [
        { site_id: 3, runs: [4, 0, 0], failed: [0, 0, 0], flaky: [0, 0, 0], degraded: [1, 0, 0] },
        { site_id: 12, runs: [5, 0, 9], failed: [5, 0, 1], flaky: [0, 0, 2], degraded: [0, 0, 0] },
      ],
    });
  });

  it('gives back the same cells (days with runs, by site then day) and leaves out days beyond the window', () => {
    const outside = { site_id: 3, date: '2026-11-20', runs: 1, failed: 0, flaky: 0, degraded: 0 };
    expect(heatmapCells(heatmapOf([...cells, outside], dates))).toEqual([cells[1], cells[2], cells[0]]);
    expect(heatmapCells(heatmapOf([], dates))).toEqual([]);
  });
});

describe('the scorecard by columns', () => {
  const row = (site_id: number, site_name: string, process: 1 | 2, last_at: number | null): ScorecardRow => ({
    site_id,
    site_name,
    process,
    mode: 1,
    runs: 10,
    passed: 9,
    failed: 1,
    flaky: 2,
    degraded: 0,
    pass_rate: 0.9,
    flake_rate: 0.2,
    p50_ms: last_at ? 1200 : null,
    p95_ms: last_at ? 2100 : null,
    last_status: last_at ? 100 : null,
    last_at,
  });
  const rows = [row(7, 'Alpha', 1, 1_795_757_760_000), row(7, 'Alpha', 2, null), row(3, 'Beta', 1, 1)];

  it('names each site once and gives back the same rows in the same order', () => {
    const card = scorecardOf(rows);
    expect(card.sites).toEqual([
      { site_id: 7, site_name: 'Alpha' },
      { site_id: 3, site_name: 'Beta' },
    ]);
    expect(card.site).toEqual([0, 0, 1]);
    expect(card.process).toEqual([1, 2, 1]);
    expect(card.p50_ms).toEqual([1200, null, 1200]);
    expect(scorecardRows(card)).toEqual(rows);
    expect(scorecardRows(scorecardOf([]))).toEqual([]);
  });
});
