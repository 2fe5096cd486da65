import type { AgentStat } from '@shared/schemas/checkResults';
import type { ReactNode } from 'react';
import { orEmpty } from '@/app/format';
import { FlagIcon } from './FlagIcon';
import { type SimpleColumn, SimpleTable } from './SimpleTable';

/** Spec section 3: the agent platforms. */
const PLATFORMS = ['D4', 'MG', 'TT'] as const;

// Each platform reads [enabled, [position flag, share-claim flag]].
const columns: SimpleColumn<AgentStat>[] = [
  { label: 'Agent', nowrap: true, cell: (a) => orEmpty(a.agent) },
  ...PLATFORMS.flatMap((p): SimpleColumn<AgentStat>[] => [
    {
      group: p,
      label: 'Enabled',
      align: 'center',
      cell: (a) => <FlagIcon value={a[p]?.[0] ?? false} label={`${p} Enabled`} />,
    },
    {
      group: p,
      label: 'Position',
      align: 'center',
      cell: (a) => <FlagIcon value={a[p]?.[1]?.[0] ?? false} label={`${p} Position`} />,
    },
    {
      group: p,
      label: 'Share Claim',
      align: 'center',
      cell: (a) => <FlagIcon value={a[p]?.[1]?.[1] ?? false} label={`${p} Share Claim`} />,
    },
  ]),
];

/** The agent stat dialog: per agent, each platform's enabled, position and share-claim flags. */
export function AgentStatTable({ stat }: { stat: readonly AgentStat[] }): ReactNode {
  return <SimpleTable label="Agent Stat" columns={columns} rows={stat} rowKey={(a, i) => `${i}-${a.agent}`} />;
}
