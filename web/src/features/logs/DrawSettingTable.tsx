import { Badge } from '@fluentui/react-components';
import type { DrawSetting } from '@shared/schemas/checkResults';
import type { ReactNode } from 'react';
import { orEmpty } from '@/app/format';
import { FlagIcon } from './FlagIcon';
import { type SimpleColumn, SimpleTable } from './SimpleTable';

const columns: SimpleColumn<DrawSetting>[] = [
  { label: 'Draw ID', cell: (d) => orEmpty(d.draw_id) },
  { label: 'Name', cell: (d) => orEmpty(d.name) },
  { label: 'Active', align: 'center', cell: (d) => <FlagIcon value={d.status[0]} label="Active" /> },
  {
    label: 'Status',
    cell: (d) => (
      <Badge appearance="tint" color={d.status[0] ? 'success' : 'informative'}>
        {orEmpty(d.status[1])}
      </Badge>
    ),
  },
];

/** The draw setting dialog of a fix-bet check: each draw with its active flag and the site's text. */
export function DrawSettingTable({ settings }: { settings: readonly DrawSetting[] }): ReactNode {
  return <SimpleTable label="Draw Setting" columns={columns} rows={settings} rowKey={(d, i) => `${i}-${d.draw_id}`} />;
}
