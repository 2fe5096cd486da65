// Long pages (page size All) render only the rows in view; shorter ones render every row.
import { useVirtualizer } from '@tanstack/react-virtual';
import type { RefObject } from 'react';

/** Pages longer than this render only the rows in view. */
export const VIRTUALIZE_AFTER = 200;
/** A first guess only: rows are measured once mounted (37 px with a switch or checkbox in them). */
const ROW_HEIGHT_ESTIMATE = 37;

/** The rows to draw with their indexes, the spacer heights above and below, and the measuring ref. */
export function useVirtualRows<R>(rows: readonly R[], scrollRef: RefObject<HTMLElement | null>) {
  const virtual = rows.length > VIRTUALIZE_AFTER;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT_ESTIMATE,
    overscan: 12,
    enabled: virtual,
  });
  const items = virtual ? virtualizer.getVirtualItems() : null;
  return {
    virtual,
    shown: items
      ? items.map((i) => ({ row: rows[i.index] as R, index: i.index as number | undefined }))
      : rows.map((row) => ({ row, index: undefined as number | undefined })),
    paddingTop: items?.length ? items[0].start : 0,
    paddingBottom: items?.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0,
    measure: virtual ? virtualizer.measureElement : undefined,
  };
}
