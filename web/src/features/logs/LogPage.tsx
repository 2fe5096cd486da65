import type { CheckLog, LogKind } from '@shared/schemas/checks';
import type { ComponentType, ReactNode } from 'react';
import { ResourceTable, type Resource } from '@/components/table';
import { useScopeFilters } from '@/components/table/useScopeFilters';
import { logResources } from './logResource';

/** One log table; opened with `?task_id=` or `?subtask_id=` it shows only that task's or subtask's logs. */
export function LogPage({ resource }: { resource: Resource<CheckLog> }): ReactNode {
  const { baseFilters, toolbar } = useScopeFilters([
    { field: 'task_id', label: 'Task #{id}' },
    { field: 'subtask_id', label: 'SubTask #{id}' },
  ]);
  // Keyed by resource: the eight routes share this component, and table state must not leak between them.
  return <ResourceTable key={resource.name} resource={resource} baseFilters={baseFilters} toolbar={toolbar} />;
}

const pages = new Map<LogKind, ComponentType>();

/** The routed screen of a log kind (one stable component per kind, for lazy routes). */
export function logPage(kind: LogKind): ComponentType {
  let page = pages.get(kind);
  if (!page) {
    const resource = logResources[kind];
    page = () => <LogPage resource={resource} />;
    pages.set(kind, page);
  }
  return page;
}
