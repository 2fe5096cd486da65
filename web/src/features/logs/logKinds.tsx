// The eight check log lists (spec sections 2 and 3) as data: each kind names its route, title
// and its own columns; `logResource` adds the columns all of them share.
import { Process } from '@shared/enums';
import type {
  AgentSettingResult,
  FixBetResult,
  OutSetting3Result,
  OutSetting3StatusResult,
} from '@shared/schemas/checkResults';
import type { CheckLog, LogKind } from '@shared/schemas/checks';
import { formatMs } from '@/app/format';
import { type Column, col } from '@/components/table';
import { formatResult } from '@/features/browser/RawLogView';
import { t } from '@/i18n';
import { AgentStatTable } from './AgentStatTable';
import { DetailDialogButton } from './DetailDialogButton';
import { DrawSettingTable } from './DrawSettingTable';
import { LongTextCell } from '@/components/display/LongTextCell';
import { OutSetting3Balance } from './OutSetting3Balance';
import { OutSetting3Detail } from './OutSetting3Detail';

type Row<R> = CheckLog & R;

/** What a dialog or alert of a row calls it: 'Log #12 · Place Bets'. */
export const rowCaption = (row: CheckLog) => `${t('Log')} #${row.id} · ${t(Process.label(row.process))}`;

// ---- column builders shared by several kinds ----------------------------------------------------
const flag = (field: string, label: string): Column<CheckLog> => col.boolean(field, label, { filter: true });

const count = (field: string, label: string): Column<CheckLog> => col.number(field, label, { filter: true });

/** Timings in ms with thousands separators (spec section 9); the raw number is exported. */
const timing = (field: string, label: string): Column<CheckLog> =>
  col.number(field, label, { filter: true, sortable: true, render: (r) => formatMs(r[field] as number) });

const longText = (field: string, label: string): Column<CheckLog> =>
  col.text(field, label, {
    searchable: true,
    filter: true,
    render: (r) => <LongTextCell title={`${t(label)} · ${rowCaption(r)}`} text={String(r[field] ?? '')} />,
  });

/** The site's raw answer: one line in the cell, indented JSON in the information alert. */
const siteReply = (label = 'Result'): Column<CheckLog> =>
  col.custom('result', label, {
    render: (r) => <LongTextCell title={`${t(label)} · ${rowCaption(r)}`} text={formatResult(r.result)} preformatted />,
    text: (r) => formatResult(r.result),
  });

const statusCode = (): Column<CheckLog> => col.number('status_code', 'Status Code', { filter: true });
const description = (): Column<CheckLog> => longText('description', 'Description');

const deleteColumns = (): Column<CheckLog>[] => [
  flag('has_record', 'Has Record'),
  flag('delete_success', 'Delete Success'),
  timing('response_timing', 'Response Timing (ms)'),
  siteReply(),
  statusCode(),
  description(),
];

export interface LogKindDef {
  kind: LogKind;
  /** Route, query key and resource name (web/src/app/routes.tsx). */
  name: string;
  title: string;
  /** The kind's own columns, between the shared leading and trailing ones. */
  columns: Column<CheckLog>[];
}

export const logKinds: Record<LogKind, LogKindDef> = {
  login: {
    kind: 'login',
    name: 'logLogin',
    title: 'Log Login',
    columns: [flag('login_success', 'Login Success'), longText('msg', 'Msg')],
  },
  'place-bets': {
    kind: 'place-bets',
    name: 'logPlaceBets',
    title: 'Log Place Bet',
    columns: [
      flag('DrawOpen', 'DrawOpen'),
      flag('bet_success', 'Bet Success'),
      timing('response_timing', 'Response Timing (ms)'),
      siteReply(),
      statusCode(),
      description(),
    ],
  },
  'delete-bet': {
    kind: 'delete-bet',
    name: 'logDeleteBets',
    title: 'Log Delete Bet',
    columns: deleteColumns(),
  },
  'fix-bet': {
    kind: 'fix-bet',
    name: 'logFixBet',
    title: 'Log Fix Bet',
    columns: [
      flag('query_success', 'Query Success'),
      count('records_cnt', 'Records'),
      count('active_cnt', 'Active'),
      count('inactive_cnt', 'Inactive'),
      col.custom('draw_settings', 'Draw Settings', {
        render: (r) => {
          const settings = (r as Row<FixBetResult>).draw_settings ?? [];
          return (
            <DetailDialogButton
              label="View"
              count={settings.length}
              title="Draw Setting"
              subtitle={rowCaption(r)}
              size="40vw"
              disabled={settings.length === 0}
            >
              {() => <DrawSettingTable settings={settings} />}
            </DetailDialogButton>
          );
        },
        text: (r) => JSON.stringify((r as Row<FixBetResult>).draw_settings ?? []),
      }),
      description(),
    ],
  },
  'out-setting-3': {
    kind: 'out-setting-3',
    name: 'logOutSetting3',
    title: 'Log Out Setting3',
    columns: [
      flag('process_success', 'Process Success'),
      timing('executed_timing', 'Executed Timing (ms)'),
      col.custom('result', 'Result', {
        render: (r) => {
          const result = (r as Row<OutSetting3Result>).result;
          return (
            <DetailDialogButton
              label="Detail"
              count={result?.data?.Msg?.length}
              title="Out Setting3 Detail"
              subtitle={rowCaption(r)}
              size="60vw"
              disabled={!result?.data && !result?.message}
            >
              {() => <OutSetting3Detail result={result} />}
            </DetailDialogButton>
          );
        },
        text: (r) => formatResult(r.result),
      }),
      statusCode(),
      description(),
    ],
  },
  'delete-bet-out': {
    kind: 'delete-bet-out',
    name: 'logDeleteBetOut',
    title: 'Log Delete Bet Out',
    columns: deleteColumns(),
  },
  'out-setting-3-status': {
    kind: 'out-setting-3-status',
    name: 'logOutSetting3Status',
    title: 'Log Out Setting3 Status',
    columns: [
      flag('is_closed', 'Closed'),
      count('fixed_bets', 'Fixed Bets'),
      col.number('balance_left', 'Balance Left', { filter: true }),
      col.custom('balance_stat', 'Balance Stat', {
        render: (r) => {
          const log = r as Row<OutSetting3StatusResult>;
          return (
            <DetailDialogButton
              label="View"
              count={log.balance_stat?.length ?? 0}
              title="Out Setting3 Balance"
              subtitle={rowCaption(r)}
              size="40vw"
              disabled={!log.balance_stat?.length}
            >
              {() => <OutSetting3Balance log={log} />}
            </DetailDialogButton>
          );
        },
        text: (r) => JSON.stringify((r as Row<OutSetting3StatusResult>).balance_stat ?? []),
      }),
      description(),
    ],
  },
  'agent-setting': {
    kind: 'agent-setting',
    name: 'logAgentSetting',
    title: 'Log Agent Setting',
    columns: [
      flag('query_success', 'Query Success'),
      count('agents_cnt', 'Agents'),
      count('normal_cnt', 'Normal'),
      col.custom('stat', 'Agent Stat', {
        render: (r) => {
          const stat = (r as Row<AgentSettingResult>).stat ?? [];
          return (
            <DetailDialogButton
              label="View"
              count={stat.length}
              title="Agent Stat"
              subtitle={rowCaption(r)}
              size="60vw"
              disabled={stat.length === 0}
            >
              {() => <AgentStatTable stat={stat} />}
            </DetailDialogButton>
          );
        },
        text: (r) => JSON.stringify((r as Row<AgentSettingResult>).stat ?? []),
      }),
      description(),
    ],
  },
};
