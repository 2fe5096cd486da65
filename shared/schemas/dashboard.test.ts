import { describe, expect, it } from 'vitest';
import { type HeatmapCell, heatmapCells, heatmapOf } from './dashboard.js';

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
