import { describe, expect, it } from 'vitest';
import { col } from './col';
import { buildCsv, buildJson, exportFileName } from './exportRows';

interface Site {
  id: number;
  name: string;
  enable: boolean;
  created_at: number | null;
  operator: { nickname: string } | null;
}
const columns = [
  col.number<Site>('id', 'ID'),
  col.text<Site>('name', 'Name'),
  col.boolean<Site>('enable', 'Enable'),
  col.datetime<Site>('created_at', 'Created At'),
  col.user<Site>('operator', 'Operator'),
];
const created = new Date(2026, 10, 22, 23, 15, 0).getTime();
const rows: Site[] = [
  { id: 1, name: 'Plain 站点', enable: true, created_at: created, operator: { nickname: 'ann' } },
  { id: 2, name: 'Has, comma "and" quotes\nand a line', enable: false, created_at: null, operator: null },
];

describe('buildCsv', () => {
  it('starts with a byte-order mark and ends every record with CRLF', () => {
    const csv = buildCsv(rows, columns);
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(csv.slice(1).split('\r\n')[0]).toBe('ID,Name,Enable,Created At,Operator');
  });

  it('writes what the user reads: local dates, "/" for none, SYSTEM for no user', () => {
    const lines = buildCsv(rows, columns).slice(1).split('\r\n');
    expect(lines[1]).toBe('1,Plain 站点,true,2026-11-22 23:15:00,ann');
    expect(lines[2].endsWith(',false,/,SYSTEM')).toBe(true);
  });

  it('quotes fields holding commas, quotes or line breaks and doubles the quotes', () => {
    const csv = buildCsv(rows, columns);
    expect(csv).toContain('2,"Has, comma ""and"" quotes\nand a line",false');
  });

  it('defuses text a spreadsheet would run as a formula, and leaves negative numbers alone', () => {
    const risky = [
      { id: 3, name: '=HYPERLINK("http://x","y")', enable: true, created_at: null, operator: null },
      { id: 4, name: '-12.5', enable: true, created_at: null, operator: { nickname: '@admin' } },
      { id: 5, name: '+1-2', enable: true, created_at: null, operator: null },
    ];
    const lines = buildCsv(risky, columns).slice(1).split('\r\n');
    expect(lines[1]).toBe(`3,"'=HYPERLINK(""http://x"",""y"")",true,/,SYSTEM`);
    expect(lines[2]).toBe("4,-12.5,true,/,'@admin");
    expect(lines[3]).toBe("5,'+1-2,true,/,SYSTEM");
  });
});

describe('buildJson', () => {
  it('exports raw values keyed by column id, null for missing ones', () => {
    expect(JSON.parse(buildJson(rows, columns))).toEqual([
      { id: 1, name: 'Plain 站点', enable: true, created_at: created, operator: { nickname: 'ann' } },
      { id: 2, name: 'Has, comma "and" quotes\nand a line', enable: false, created_at: null, operator: null },
    ]);
  });
});

describe('exportFileName', () => {
  it('names the file by the list name and the local time', () => {
    expect(exportFileName('sites', 'csv', new Date(2026, 10, 22, 23, 15, 0))).toBe('sites-20261122-231500.csv');
    expect(exportFileName('sites', 'json', new Date(2026, 0, 2, 3, 4, 5))).toBe('sites-20260102-030405.json');
  });
});
