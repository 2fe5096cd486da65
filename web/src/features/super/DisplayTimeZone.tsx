import { Fragment, type ReactNode, useEffect } from 'react';
import { displayTimeZone, setDisplayTimeZone } from '@/app/format';
import { usePersistentState } from '@/app/usePersistentState';
import { useSystemConfig } from './systemConfigApi';

export const TIME_ZONE_KEY = 'patrol.timeZone';

/**
 * Shows every time under it in the system config's zone. The last zone seen is remembered, so a
 * reload formats right from the first paint; when the zone changes, the screen under it is drawn
 * again (cells format outside React, so nothing else would redraw them). On a first visit, with no
 * zone remembered, the screen waits for the config: drawn in the browser's zone and redrawn when
 * the config came, it would lose what the user had begun to type.
 */
export function DisplayTimeZone({ children }: { children: ReactNode }): ReactNode {
  const { data, isPending } = useSystemConfig();
  const [remembered, setRemembered] = usePersistentState<string | null>(TIME_ZONE_KEY, null);
  const zone = data?.time_zone ?? remembered ?? undefined;
  if (zone !== displayTimeZone()) setDisplayTimeZone(zone);
  useEffect(() => {
    if (data) setRemembered(data.time_zone);
  }, [data, setRemembered]);
  if (zone === undefined && isPending) return null;
  return <Fragment key={zone ?? 'local'}>{children}</Fragment>;
}
