import { emptyListQuery, serializeListQuery } from '@shared/listQuery';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { col } from './col';
import { filtersToQuery } from './filtersToQuery';
import { DEFAULT_RECENT_RANGE, RECENT_RANGES, resolveRecentRange } from './recentRanges';
import type { FilterInput } from './types';

interface Row {
  name: string;
  enable: boolean;
  status: number;
  cnt: number;
  day: number;
  at: number;
  tod: number;
}
const Status = { options: [], label: String, has: () => true, values: {}, labels: {} };
const columns = [
  col.text<Row>('name', 'Name', { filter: true }),
  col.boolean<Row>('enable', 'Enable', { filter: true }),
  col.enum<Row, number>('status', 'Status', Status as never, { filter: true }),
  col.number<Row>('cnt', 'Count', { filter: true }),
  col.date<Row>('day', 'Day', { filter: true }),
  col.datetime<Row>('at', 'At', { filter: 'range' }),
  col.time<Row>('tod', 'Time', { filter: true }),
];

/** The query-string params a set of header filters sends. */
function paramsOf(inputs: Record<string, FilterInput>) {
  const { page, page_size, ...rest } = serializeListQuery(emptyListQuery({ filters: filtersToQuery(columns, inputs) }));
  return rest;
}

const local = (s: string) => dayjs(s).valueOf();

describe('filtersToQuery', () => {
  it('sends a text filter as the trimmed text', () => {
    expect(paramsOf({ name: { kind: 'text', value: '  bet ' } })).toEqual({ name: 'bet' });
  });

  it('sends a boolean filter as true or false, and nothing for "any"', () => {
    expect(paramsOf({ enable: { kind: 'boolean', value: false } })).toEqual({ enable: 'false' });
    expect(paramsOf({ enable: { kind: 'boolean', value: true } })).toEqual({ enable: 'true' });
    expect(paramsOf({ enable: { kind: 'boolean', value: null } })).toEqual({});
  });

  it('sends an enum filter as the chosen values joined by commas', () => {
    expect(paramsOf({ status: { kind: 'enum', values: [1, 99] } })).toEqual({ status: '1,99' });
    expect(paramsOf({ status: { kind: 'enum', values: [] } })).toEqual({});
  });

  it.each([
    ['=', '3', '=-3'],
    ['!=', '0', '!=-0'],
    ['<', '10', '<-10'],
    ['<=', '2.5', '<=-2.5'],
    ['>', '-4', '>--4'],
    ['>=', '7', '>=-7'],
  ] as const)('sends number condition %s %s as "%s"', (op, value, wire) => {
    expect(paramsOf({ cnt: { kind: 'number', op, value } })).toEqual({ cnt: wire });
  });

  it('sends nothing for a number filter without a number', () => {
    expect(paramsOf({ cnt: { kind: 'number', op: '>', value: '' } })).toEqual({});
    expect(paramsOf({ cnt: { kind: 'number', op: '>', value: 'abc' } })).toEqual({});
  });

  it('sends a picked date as the whole local day in ms stamps', () => {
    const day = local('2026-11-22');
    expect(paramsOf({ day: { kind: 'moment', at: day + 5 * 3600_000 } })).toEqual({
      day: `${day},${local('2026-11-23') - 1}`,
    });
  });

  it('sends a datetime range from the start of its first minute to the end of its last', () => {
    const start = local('2026-11-22 10:00');
    const end = local('2026-11-22 11:30');
    expect(paramsOf({ at: { kind: 'range', start: start + 20_000, end } })).toEqual({ at: `${start},${end + 59_999}` });
  });

  it('sends an open-ended range with the missing side empty', () => {
    const start = local('2026-11-22 10:00');
    expect(paramsOf({ at: { kind: 'range', start, end: null } })).toEqual({ at: `${start},` });
    expect(paramsOf({ at: { kind: 'range', start: null, end: null } })).toEqual({});
  });

  it('sends a picked time of day as ms since midnight covering its minute', () => {
    const nineThirty = (9 * 60 + 30) * 60_000;
    expect(paramsOf({ tod: { kind: 'moment', at: nineThirty } })).toEqual({
      tod: `${nineThirty},${nineThirty + 59_999}`,
    });
  });

  it('sends a recent range as exactly now minus the amount to now', () => {
    const now = local('2026-11-22 23:15:00');
    const range = resolveRecentRange(DEFAULT_RECENT_RANGE, now);
    expect(paramsOf({ at: { kind: 'range', ...range, recent: DEFAULT_RECENT_RANGE.key } })).toEqual({
      at: `${now - 5 * 60_000},${now}`,
    });
  });

  it('offers the recent ranges of the spec, 5 minutes by default', () => {
    expect(RECENT_RANGES.map((r) => r.key)).toEqual([
      '1 minute',
      '5 minutes',
      '10 minutes',
      '30 minutes',
      '1 hour',
      '3 hours',
      '6 hours',
      '12 hours',
      '1 day',
      '3 days',
      '7 days',
      '15 days',
      '1 week',
      '2 weeks',
      '3 weeks',
      '4 weeks',
      '1 month',
      '3 months',
      '6 months',
    ]);
    expect(DEFAULT_RECENT_RANGE.key).toBe('5 minutes');
  });

  it('ignores inputs of columns the resource does not have', () => {
    expect(paramsOf({ gone: { kind: 'text', value: 'x' } })).toEqual({});
  });
});
