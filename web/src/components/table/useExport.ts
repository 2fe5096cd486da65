// Export of the selected rows as CSV or JSON (spec section 9), over the visible exportable columns.
import { toast } from '@/app/toast';
import { useT } from '@/i18n';
import { buildCsv, buildJson, downloadText, exportFileName } from './exportRows';
import type { Column } from './types';

export type ExportFormat = 'csv' | 'json';

export function useExport<T>(name: string, columns: Column<T>[], visibility: Record<string, boolean>) {
  const t = useT();
  return (rows: T[], format: ExportFormat) => {
    const exportColumns = columns.filter((c) => c.exportable && visibility[c.id] !== false);
    const text = format === 'csv' ? buildCsv(rows, exportColumns) : buildJson(rows, exportColumns);
    downloadText(
      exportFileName(name, format),
      text,
      format === 'csv' ? 'text/csv;charset=utf-8' : 'application/json;charset=utf-8',
    );
    toast.success(t('Exported {count} rows', { count: rows.length }));
  };
}
