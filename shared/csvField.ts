// One CSV field, for every CSV Patrol writes (the reports' CSV and the console's table export,
// web/src/components/table/exportRows.ts).
//
// A spreadsheet runs a cell that starts with = + - @ (or a tab / CR before one) as a formula; site
// names and texts come from outside, so such text is defused with a leading apostrophe (OWASP's
// advice). Plain numbers such as -12.5 are left as they are. RFC 4180: a field holding a separator,
// a quote, a line break or edge spaces is quoted.

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const raw = String(value);
  const text = FORMULA_START.test(raw) && !PLAIN_NUMBER.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The byte-order mark makes Excel read UTF-8 (Chinese and Burmese names); CRLF is what it expects between records. */
export const CSV_BOM = '\uFEFF';
export const CSV_CRLF = '\r\n';

/** Records as CSV lines (no BOM). */
export const csvLines = (records: readonly (readonly (string | number | null | undefined)[])[]): string =>
  records.map((r) => r.map(csvField).join(',')).join(CSV_CRLF) + CSV_CRLF;
