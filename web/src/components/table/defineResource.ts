import type { Resource, ResourceConfig } from './types';

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
  const { defaultSort } = config;
  return {
    ...config,
    actions: config.actions ?? [],
    rowActions: config.rowActions ?? [],
    selectable: config.selectable ?? false,
    defaultSort: defaultSort === undefined ? [] : Array.isArray(defaultSort) ? defaultSort : [defaultSort],
  };
}
