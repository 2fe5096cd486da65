import { fieldSpec, type ListFields } from '@shared/listQuery';
import type { Column, Resource, ResourceConfig } from './types';

/**
 * A column offers what it asks for only where the list's declaration (shared/schemas, the same one the
 * server parses with) offers it: the server refuses any other sort, filter or keyword field with a 400,
 * so a header button for it could only fail. Columns of fields outside the declaration offer none.
 */
function withinDeclaration<T>(c: Column<T>, fields: ListFields): Column<T> {
  const spec = Object.hasOwn(fields, c.id) ? fieldSpec(fields[c.id]) : undefined;
  return {
    ...c,
    sortable: c.sortable && Boolean(spec?.sort),
    filter: spec?.filter ? c.filter : false,
    searchable: c.searchable && Boolean(spec?.search),
  };
}

/**
 * Declares a list screen as data: `<ResourceTable resource={sitesResource} />` renders it and
 * `useList` fetches it. A new screen adds a resource, not table code.
 */
export function defineResource<T>(config: ResourceConfig<T>): Resource<T> {
  const ids = new Set<string>();
  for (const c of config.columns) {
    // Two columns with one id would share a filter, a sort key and a saved visibility flag.
    if (ids.has(c.id)) throw new Error(`${config.name}: column ${c.id} is declared twice`);
    ids.add(c.id);
  }
  const { defaultSort, listFields } = config;
  return {
    ...config,
    columns: config.columns.map((c) => withinDeclaration(c, listFields)),
    actions: config.actions ?? [],
    rowActions: config.rowActions ?? [],
    selectable: config.selectable ?? false,
    defaultSort: defaultSort === undefined ? [] : Array.isArray(defaultSort) ? defaultSort : [defaultSort],
  };
}
