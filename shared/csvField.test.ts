import { describe, expect, it } from 'vitest';
import { csvField, csvLines } from './csvField.js';

describe('csvField', () => {
  it('defuses text a spreadsheet would run as a formula, and leaves plain numbers alone', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('@SUM(A1)')).toBe(`'@SUM(A1)`);
    expect(csvField('-12.5')).toBe('-12.5');
    expect(csvField(-3)).toBe('-3');
  });

  it('quotes separators, quotes, line breaks and edge spaces; null is an empty field', () => {
    expect(csvField('Lucky, 4D')).toBe('"Lucky, 4D"');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(' padded')).toBe('" padded"');
    expect(csvField(null)).toBe('');
    expect(
      csvLines([
        ['a', 1, null],
        ['b', 2, 'c'],
      ]),
    ).toBe('a,1,\r\nb,2,c\r\n');
  });
});
