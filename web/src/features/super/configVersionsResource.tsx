// The versions of the system config (GET /super/system-config/versions), newest first, each
// restorable; shown under the Config form.
import { type ConfigChange, type SystemConfigVersion, systemConfigVersionFields } from '@shared/schemas/systemConfig';
import { col, defineResource } from '@/components/table';
import { t } from '@/i18n';
import { restoreSystemConfig } from './systemConfigApi';

const shown = (v: unknown) => (v === null || v === undefined ? '/' : JSON.stringify(v));

/** 'time_zone: "Asia/Yangon" → "UTC"', one change per line. */
export const describeChanges = (changes: ConfigChange[]) =>
  changes.map((c) => `${c.path}: ${shown(c.from)} → ${shown(c.to)}`).join('\n');

export const configVersionsResource = defineResource<SystemConfigVersion>({
  name: 'systemConfigVersions',
  endpoint: '/super/system-config/versions',
  listFields: systemConfigVersionFields,
  title: 'Versions',
  rowId: (v) => v.id,
  defaultSort: { field: 'created_at', order: 'desc' },
  pageSize: 10,
  failureTip: 'Fetch versions failed.',
  columns: [
    col.number('id', 'Version', { copyable: false }),
    col.datetime('created_at', 'Saved At', { sortable: true, filter: 'range' }),
    col.user('by', 'Saved By'),
    col.custom('changes', 'Changes', {
      text: (v) => describeChanges(v.changes),
      render: (v) => (
        <span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{describeChanges(v.changes)}</span>
      ),
      width: 360,
    }),
    col.number('restored_from', 'Restored From', { filter: true }),
  ],
  rowActions: [
    {
      label: 'Restore',
      confirm: (v) => t('Restore version {version}? It becomes a new version.', { version: v.id }),
      onClick: async (v, { refetch }) => {
        await restoreSystemConfig(v.id);
        await refetch();
      },
    },
  ],
});
