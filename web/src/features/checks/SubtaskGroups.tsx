import {
  Badge,
  makeStyles,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { Process, TestMode } from '@shared/enums';
import type { ProcessGroup } from '@shared/schemas/checks';
import type { ReactNode } from 'react';
import { formatDateTime, formatSeconds } from '@/app/format';
import { useT } from '@/i18n';
import { CheckLogsButton } from './CheckResultsDialog';
import { durationMs } from './checksApi';
import { LongTextCell } from '@/components/display/LongTextCell';
import { EMPTY_TEXT } from '@/app/constants';
import { SubtaskOutcome } from './SubtaskOutcome';

const useStyles = makeStyles({
  groups: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  group: {
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    overflow: 'hidden',
  },
  head: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  name: { fontWeight: tokens.fontWeightSemibold, marginRight: 'auto' },
  num: { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' },
  nowrap: { whiteSpace: 'nowrap' },
  empty: { color: tokens.colorNeutralForeground3 },
  hidden: { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clipPath: 'inset(50%)' },
});

/** A group's counts: failed and running stand out only when there are any. */
export function GroupCounts({ failed, running, total }: { failed: number; running: number; total: number }): ReactNode {
  const t = useT();
  return (
    <>
      <Badge appearance="tint" color={failed ? 'danger' : 'subtle'}>
        {t('Failed')} {failed}
      </Badge>
      <Badge appearance="tint" color={running ? 'brand' : 'subtle'}>
        {t('Running')} {running}
      </Badge>
      <Badge appearance="tint" color="informative">
        {t('Total')} {total}
      </Badge>
    </>
  );
}

/** A task's subtasks grouped by process, each group with its counts and its subtasks' logs. */
export function SubtaskGroups({ groups, siteName }: { groups: ProcessGroup[]; siteName?: string }): ReactNode {
  const t = useT();
  const styles = useStyles();
  if (!groups.length) return <Text className={styles.empty}>{t('No subtasks')}</Text>;
  return (
    <div className={styles.groups}>
      {groups.map((g) => {
        const label = t(Process.label(g.process));
        return (
          <section key={g.process} className={styles.group} aria-label={label}>
            <div className={styles.head}>
              <Text className={styles.name}>{label}</Text>
              <GroupCounts failed={g.task_failed} running={g.task_running} total={g.task_total} />
            </div>
            <Table size="small" aria-label={label}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell style={{ width: 72 }}>{t('ID')}</TableHeaderCell>
                  <TableHeaderCell style={{ width: 64 }}>{t('Mode')}</TableHeaderCell>
                  <TableHeaderCell style={{ width: 140 }}>{t('Status')}</TableHeaderCell>
                  <TableHeaderCell style={{ width: 72 }}>{t('Attempts')}</TableHeaderCell>
                  <TableHeaderCell>{t('Msg')}</TableHeaderCell>
                  <TableHeaderCell style={{ width: 176 }}>{t('Start At')}</TableHeaderCell>
                  <TableHeaderCell style={{ width: 96 }}>{t('Duration')}</TableHeaderCell>
                  <TableHeaderCell style={{ width: 72 }}>
                    <span className={styles.hidden}>{t('Logs')}</span>
                  </TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {g.tasks.map((s) => (
                  <TableRow key={s.id}>
                    <TableCell className={styles.num}>{s.id}</TableCell>
                    <TableCell>{TestMode.label(s.mode)}</TableCell>
                    <TableCell>
                      <SubtaskOutcome subtask={s} />
                    </TableCell>
                    <TableCell className={styles.num}>{s.attempts ?? EMPTY_TEXT}</TableCell>
                    <TableCell>
                      <LongTextCell
                        title={`${t('SubTask')} #${s.id} · ${label}`}
                        text={s.msg}
                        preformatted
                        buttonLabel="Show message"
                      />
                    </TableCell>
                    <TableCell className={styles.nowrap}>{formatDateTime(s.start_at)}</TableCell>
                    <TableCell className={styles.num}>{formatSeconds(durationMs(s.start_at, s.end_at))}</TableCell>
                    <TableCell>
                      <CheckLogsButton subtask={{ ...s, site: s.site ?? (siteName ? { name: siteName } : null) }} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </section>
        );
      })}
    </div>
  );
}
