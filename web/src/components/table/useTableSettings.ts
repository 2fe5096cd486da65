import { useCallback, useState } from 'react';
import type { Column } from './types';

export const settingsKey = (name: string, part: 'columns' | 'search') => `patrol.table.${name}.${part}`;

function load<V>(key: string, isValid: (v: unknown) => v is V): V | undefined {
  try {
    const raw = localStorage.getItem(key);
    const value: unknown = raw === null ? undefined : JSON.parse(raw);
    return isValid(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function save(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode or a full quota: the choice lasts for this page only.
  }
}

const isFlagMap = (v: unknown): v is Record<string, boolean> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((f) => typeof f === 'boolean');
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

export function defaultVisibility(columns: readonly Column<unknown>[]): Record<string, boolean> {
  return Object.fromEntries(columns.map((c) => [c.id, !c.hidden]));
}

export function defaultSearchFields(columns: readonly Column<unknown>[]): string[] {
  return columns.filter((c) => c.searchable).map((c) => c.id);
}

/**
 * Column visibility and search columns of one table, kept in localStorage under its name.
 * Saved flags are merged over the declared defaults, so a column added later still appears
 * and a removed one is forgotten.
 */
export function useTableSettings<T>(name: string, columns: readonly Column<T>[]) {
  const cols = columns as readonly Column<unknown>[];
  const [visibility, setVisibilityState] = useState<Record<string, boolean>>(() => {
    const saved = load(settingsKey(name, 'columns'), isFlagMap) ?? {};
    const defaults = defaultVisibility(cols);
    return Object.fromEntries(Object.entries(defaults).map(([id, v]) => [id, saved[id] ?? v]));
  });
  const [searchFields, setSearchFieldsState] = useState<string[]>(() => {
    const searchable = new Set(defaultSearchFields(cols));
    const saved = load(settingsKey(name, 'search'), isStringList);
    return saved ? saved.filter((id) => searchable.has(id)) : [...searchable];
  });

  const setVisibility = useCallback(
    (next: Record<string, boolean>) => {
      setVisibilityState(next);
      save(settingsKey(name, 'columns'), next);
    },
    [name],
  );
  const setSearchFields = useCallback(
    (next: string[]) => {
      setSearchFieldsState(next);
      save(settingsKey(name, 'search'), next);
    },
    [name],
  );
  return { visibility, setVisibility, searchFields, setSearchFields };
}
