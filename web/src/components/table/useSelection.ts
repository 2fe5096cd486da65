// Row selection that survives paging: the chosen rows are kept by id with their data, so an export
// or a batch action sees rows from every page the user picked them on.
import type { RowSelectionState, Updater } from '@tanstack/react-table';
import { useCallback, useMemo, useRef, useState } from 'react';
import type { ActionContext } from './types';

export function useSelection<T>(options: {
  rowKey: (row: T) => string;
  /** Rows of the page on screen; a newly ticked row is taken from here. */
  pageRows: readonly T[];
  initialSelectMode: boolean;
  refetch: ActionContext<T>['refetch'];
}) {
  const { rowKey, pageRows, refetch } = options;
  const [selectMode, setSelectModeState] = useState(options.initialSelectMode);
  const [selected, setSelected] = useState<Map<string, T>>(() => new Map());
  const clearSelection = useCallback(() => setSelected(new Map()), []);

  // One ctx for the table's lifetime (rows are memoised on it); `selected` is read when an action runs.
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  const ctx: ActionContext<T> = useMemo(
    () => ({
      get selected() {
        return [...selectedRef.current.values()];
      },
      clearSelection,
      refetch,
    }),
    [clearSelection, refetch],
  );

  const rowSelection: RowSelectionState = useMemo(
    () => Object.fromEntries([...selected.keys()].map((id) => [id, true])),
    [selected],
  );
  const onRowSelectionChange = (updater: Updater<RowSelectionState>) => {
    const next = typeof updater === 'function' ? updater(rowSelection) : updater;
    const onPage = new Map(pageRows.map((r) => [rowKey(r), r]));
    setSelected((prev) => {
      const out = new Map<string, T>();
      for (const [id, on] of Object.entries(next)) {
        const row = prev.get(id) ?? onPage.get(id);
        if (on && row !== undefined) out.set(id, row);
      }
      return out;
    });
  };

  return {
    selectMode,
    /** Leaving select mode drops the selection. */
    toggleSelectMode: () => {
      if (selectMode) clearSelection();
      setSelectModeState(!selectMode);
    },
    selected,
    rowSelection,
    onRowSelectionChange,
    ctx,
  };
}
