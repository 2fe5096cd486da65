import { Tag, TagGroup } from '@fluentui/react-components';
import type { Filter } from '@shared/listQuery';
import { type ReactNode, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useT } from '@/i18n';

export interface Scope {
  /** Query-string parameter and list field, e.g. 'operation_id'. */
  field: string;
  /** Tag text, e.g. 'Operation #{id}'. */
  label: string;
  /**
   * What the parameter holds: an id (default), an enum value ('process=2'), or a range of epoch ms
   * ('created_at=start,end', a day the dashboard links to).
   */
  kind?: 'id' | 'enum' | 'range';
  /** The tag's {id} as shown (an enum's label, a range's day). */
  show?: (value: string) => string;
}

const VALID = { id: /^[1-9]\d*$/, enum: /^\d+$/, range: /^\d+,\d+$/ } as const;

function filterOf(scope: Scope, value: string): Filter {
  if (scope.kind === 'enum') return { kind: 'enum', values: [Number(value)] };
  if (scope.kind === 'range') {
    const [start, end] = value.split(',').map(Number);
    return { kind: 'range', start, end };
  }
  return { kind: 'number', op: '=', value: Number(value) };
}

/**
 * Lists opened from a parent (`/tasks/subtasks?task_id=3`) or a dashboard cell
 * (`?site_id=4&process=2&mode=1`) show only its rows; each scope shows as a tag the user can
 * dismiss to see everything again.
 */
export function useScopeFilters(scopes: Scope[]): { baseFilters?: Record<string, Filter>; toolbar: ReactNode } {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const active = scopes
    .map((s) => ({ ...s, id: params.get(s.field) ?? '' }))
    .filter((s) => VALID[s.kind ?? 'id'].test(s.id));
  const key = active.map((s) => `${s.field}=${s.id}`).join('&');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the whole content of `active`
  const baseFilters = useMemo(
    () =>
      active.length ? Object.fromEntries(active.map((s): [string, Filter] => [s.field, filterOf(s, s.id)])) : undefined,
    [key],
  );
  const toolbar = active.length ? (
    <TagGroup
      aria-label={t('Scope')}
      onDismiss={(_, d) => {
        const next = new URLSearchParams(params);
        next.delete(String(d.value));
        setParams(next, { replace: true });
      }}
    >
      {active.map((s) => (
        <Tag key={s.field} value={s.field} dismissible size="small" appearance="brand">
          {t(s.label, { id: s.show ? s.show(s.id) : s.id })}
        </Tag>
      ))}
    </TagGroup>
  ) : null;
  return { baseFilters, toolbar };
}
