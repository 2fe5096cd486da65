import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { ResourceTable } from '@/components/table';
import { refreshMaintenance, siteNamesQuery } from './maintenanceApi';
import { maintenanceResource } from './maintenanceResource';

/** '/auto-checks/maintenance' (issue 27): maintenance windows, with the list protocol's table. */
export default function MaintenancePage(): ReactNode {
  const client = useQueryClient();
  const sites = useQuery(siteNamesQuery);
  const siteNames = useMemo(() => new Map((sites.data ?? []).map((s) => [s.id, s.name])), [sites.data]);
  const resource = useMemo(
    () => maintenanceResource({ siteNames, changed: () => refreshMaintenance(client) }),
    [siteNames, client],
  );
  return <ResourceTable resource={resource} />;
}
