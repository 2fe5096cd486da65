import dayjs from 'dayjs';
import { saveBlob } from '@/api/downloadFile';
import type { Column } from './types';

type ExportColumn<T> = Pick<Column<T>, 'id' | 'label' | 'text' | 'value'>;

const BOM = '\uFEFF';
const CRLF = '\r\n';

// A spreadsheet runs a cell that starts with = + - @ (or a tab / CR before one) as a formula; site
// names and log texts come from outside, so such text is defused with a leading apostrophe (OWASP's
// advice). Plain numbers such as -12.5 are left as they are.
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;
function defuseFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

// RFC 4180: quote a field holding a separator, a quote, a line break or edge spaces.
function csvField(raw: string): string {
  const text = defuseFormula(raw);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Rows as CSV of what the user reads in each column. The byte-order mark makes Excel read
 * UTF-8 (Chinese and Burmese names), CRLF is what it expects between records.
 */
export function buildCsv<T>(rows: readonly T[], columns: readonly ExportColumn<T>[]): string {
  const lines = [
    columns.map((c) => csvField(c.label)),
    ...rows.map((row) => columns.map((c) => csvField(c.text(row)))),
  ];
  return BOM + lines.map((fields) => fields.join(',')).join(CRLF) + CRLF;
}

/** Rows as JSON of raw values keyed by column id, so numbers, booleans and stamps survive a round trip. */
export function buildJson<T>(rows: readonly T[], columns: readonly ExportColumn<T>[]): string {
  const objects = rows.map((row) => Object.fromEntries(columns.map((c) => [c.id, c.value(row) ?? null])));
  return JSON.stringify(objects, null, 2);
}

/** e.g. 'sites-20261122-231500.csv', in local time. */
export function exportFileName(name: string, ext: 'csv' | 'json', now: Date | number = Date.now()): string {
  return `${name}-${dayjs(now).format('YYYYMMDD-HHmmss')}.${ext}`;
}

export function downloadText(fileName: string, text: string, type: string): void {
  saveBlob(fileName, new Blob([text], { type }));
}
