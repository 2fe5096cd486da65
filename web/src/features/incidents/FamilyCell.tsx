import { Link } from '@fluentui/react-components';
import { type Incident, IncidentCause } from '@shared/schemas/incidents';
import type { ReactNode } from 'react';
import { navigateTo } from '@/app/navigation';
import { pathOf } from '@/app/paths';
import { useT } from '@/i18n';

/** A link inside the console: a real address (open in a new tab), followed in place on a click. */
function ConsoleLink({ to, children }: { to: string; children: ReactNode }): ReactNode {
  return (
    <Link
      href={to}
      onClick={(e) => {
        e.preventDefault();
        navigateTo(to);
      }}
    >
      {children}
    </Link>
  );
}

/**
 * Correlated incidents (issue 45) in the list: a parent's cell names its cause and opens the list of
 * its children (`/incidents?parent_id=<id>`, a scope tag the user dismisses); a child's links its parent.
 */
export function FamilyCell({ incident: i }: { incident: Incident }): ReactNode {
  const t = useT();
  if (i.cause)
    return (
      <ConsoleLink to={`${pathOf('incidents')}?parent_id=${i.id}`}>
        {t('{count} children', { count: i.children })} · {t(IncidentCause.label(i.cause))}
      </ConsoleLink>
    );
  if (i.parent_id)
    return (
      <ConsoleLink to={pathOf('incidentDetail', { incidentID: i.parent_id })}>
        {t('Parent')} #{i.parent_id}
      </ConsoleLink>
    );
  return null;
}
