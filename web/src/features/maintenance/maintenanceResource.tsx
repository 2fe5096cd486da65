// The Maintenance screen's table (under Auto Check): every window, in force or not, with its sites,
// mode and time, an Enabled switch, Edit and Delete. New window is the table action.
import { Badge } from '@fluentui/react-components';
import { Weekday } from '@shared/enums';
import {
  MaintenanceKind,
  MaintenanceMode,
  type MaintenanceWindow,
  maintenanceListFields,
} from '@shared/schemas/maintenance';
import { formatDateTime } from '@/app/format';
import { col, defineResource } from '@/components/table';
import { t } from '@/i18n';
import { deleteMaintenance, MAINTENANCE, setMaintenanceEnabled } from './maintenanceApi';
import { EditMaintenanceButton, MaintenanceDialog } from './MaintenanceDialog';

/** 'Mon, Fri 23:00-01:00' or '2026-11-27 10:00:00 → 2026-11-27 11:00:00'. */
export function whenText(w: MaintenanceWindow): string {
  if (w.kind === 'once') return `${formatDateTime(w.start_at)} → ${formatDateTime(w.end_at)}`;
  const days = (w.days ?? []).map((d) => t(Weekday.label(d)).slice(0, 3)).join(', ');
  return `${days} ${w.start_time}-${w.end_time}`;
}

export function sitesText(w: MaintenanceWindow, names: ReadonlyMap<number, string>): string {
  if (w.sites === 'all') return t('All sites');
  return w.sites.map((id) => names.get(id) ?? `#${id}`).join(', ');
}

export function maintenanceResource(opts: { siteNames: ReadonlyMap<number, string>; changed: () => unknown }) {
  return defineResource<MaintenanceWindow>({
    name: MAINTENANCE,
    endpoint: '/maintenance',
    title: 'Maintenance windows',
    listFields: maintenanceListFields,
    rowId: (w) => w.id,
    defaultSort: { field: 'created_at', order: 'desc' },
    failureTip: 'Fetch maintenance windows failed.',
    columns: [
      col.number('id', 'ID'),
      col.text('name', 'Name', { searchable: true, filter: true, sortable: true }),
      col.custom('sites', 'Sites', { text: (w) => sitesText(w, opts.siteNames) }),
      col.enum('mode', 'Mode', MaintenanceMode, {
        filter: true,
        render: (w) => (
          <Badge appearance="tint" color={w.mode === 'pause' ? 'warning' : 'informative'}>
            {t(MaintenanceMode.label(w.mode))}
          </Badge>
        ),
      }),
      col.enum('kind', 'Kind', MaintenanceKind, { filter: true }),
      col.custom('when', 'When', { text: whenText }),
      col.custom('active', 'Now', {
        text: (w) => (w.active ? t('In force') : ''),
        render: (w) =>
          w.active ? (
            <Badge appearance="filled" color="warning">
              {t('In force')}
            </Badge>
          ) : null,
      }),
      col.datetime('next_start', 'Next Start', {
        help: 'When the window next begins, or when the one in force began, in the configured time zone.',
      }),
      col.boolean('enabled', 'Enabled', {
        filter: true,
        toggle: async (w, enabled) => {
          await setMaintenanceEnabled(w, enabled);
          await opts.changed();
        },
      }),
      col.user('creator', 'Creator'),
      col.datetime('created_at', 'Created At', { sortable: true, filter: 'range' }),
    ],
    actions: [{ label: 'NewWindow', write: true, render: () => <MaintenanceDialog /> }],
    rowActions: [
      { label: 'Edit', write: true, render: (w) => <EditMaintenanceButton window={w} /> },
      {
        label: 'Delete',
        write: true,
        confirm: (w) => t('Confirm Delete Window {name}?', { name: w.name }),
        onClick: async (w) => {
          await deleteMaintenance(w).catch(() => undefined);
          await opts.changed();
        },
      },
    ],
  });
}
