import dayjs from 'dayjs';
import { saveBlob } from '@/api/downloadFile';
import { CSV_BOM, csvLines } from '@shared/csvField';
import type { Column } from './types';

type ExportColumn<T> = Pick<Column<T>, 'id' | 'label' | 'text' | 'value'>;

/**
 * Rows as CSV of what the user reads in each column. The byte-order mark makes Excel read
 * UTF-8 (Chinese and Burmese names), CRLF is what it expects between records.
 */
export function buildCsv<T>(rows: readonly T[], columns: readonly ExportColumn<T>[]): string {
  // One CSV rule for the console and the reports (shared/csvField.ts): formulas defused, RFC 4180 quoting.
  return CSV_BOM + csvLines([columns.map((c) => c.label), ...rows.map((row) => columns.map((c) => c.text(row)))]);
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
