// Row selection that survives paging: the chosen rows are kept by id with their data, so an export
// or a batch action sees rows from every page the user picked them on.
import type { RowSelectionState, Updater } from '@tanstack/react-table';
import { useCallback, useMemo, useRef, useState } from 'react';
import type { ActionContext } from './types';

/** A selection the screen holds (a picker, e.g. a rule's sites): keys are the rows' ids as strings. */
export interface ControlledSelection<T> {
  keys: readonly string[];
  /** The new keys, with the rows of the page on screen (to read names of newly ticked rows). */
  onChange(keys: string[], pageRows: readonly T[]): void;
}

export function useSelection<T>(options: {
  rowKey: (row: T) => string;
  /** Rows of the page on screen; a newly ticked row is taken from here. */
  pageRows: readonly T[];
  initialSelectMode: boolean;
  refetch: ActionContext<T>['refetch'];
  /** Held by the screen: select mode stays on and the ticks follow `keys`. */
  controlled?: ControlledSelection<T>;
}) {
  const { rowKey, pageRows, refetch, controlled } = options;
  const [selectModeState, setSelectModeState] = useState(options.initialSelectMode);
  const selectMode = controlled ? true : selectModeState;
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

  const controlledKeys = controlled?.keys;
  const rowSelection: RowSelectionState = useMemo(
    () => Object.fromEntries([...(controlledKeys ?? selected.keys())].map((id) => [id, true])),
    [selected, controlledKeys],
  );
  const onRowSelectionChange = (updater: Updater<RowSelectionState>) => {
    const next = typeof updater === 'function' ? updater(rowSelection) : updater;
    controlled?.onChange(
      Object.entries(next)
        .filter(([, on]) => on)
        .map(([id]) => id),
      pageRows,
    );
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
      if (controlled) return;
      if (selectMode) clearSelection();
      setSelectModeState(!selectMode);
    },
    selected,
    rowSelection,
    onRowSelectionChange,
    ctx,
  };
}
