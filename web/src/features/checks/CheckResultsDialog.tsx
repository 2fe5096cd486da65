import { makeStyles, Spinner, Tab, TabList, Text, tokens } from '@fluentui/react-components';
import { CheckmarkCircle12Filled, DismissCircle12Filled, DocumentDismiss24Regular } from '@fluentui/react-icons';
import { Process, TestMode } from '@shared/enums';
import type { CheckResult, Subtask } from '@shared/schemas/checks';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { formatDateTime } from '@/app/format';
import { pathOf } from '@/app/paths';
import { RouteLink } from '@/components/display/RouteLink';
import { DialogButton, OkDialog } from '@/components/dialog';
import { RawLogView } from '@/features/browser/RawLogView';
import { VideoPlayer } from '@/features/browser/VideoPlayer';
import { useT } from '@/i18n';
import { checkResultsQuery } from './checksApi';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minHeight: '240px' },
  tabs: { borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, overflowX: 'auto' },
  ok: { color: tokens.colorPaletteGreenForeground1 },
  bad: { color: tokens.colorPaletteRedForeground1 },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingVerticalS,
    minHeight: '200px',
    color: tokens.colorNeutralForeground3,
  },
  center: { display: 'grid', placeItems: 'center', minHeight: '200px' },
  subtitle: { color: tokens.colorNeutralForeground3, fontWeight: tokens.fontWeightRegular },
});

export type CheckedSubtask = Pick<Subtask, 'id' | 'process' | 'mode'> & { site?: { name: string } | null };

function CheckResultBody({ result }: { result: CheckResult }): ReactNode {
  const t = useT();
  const styles = useStyles();
  if (result.raw_log) return <RawLogView log={result.raw_log} />;
  // A check whose raw log was not written (the checker died first) still has a tab, so the count is honest.
  return (
    <div className={styles.content}>
      <Text className={styles.subtitle}>{t('No result')}</Text>
      <VideoPlayer video={null} />
    </div>
  );
}

function CheckResultTabs({ results }: { results: CheckResult[] }): ReactNode {
  const t = useT();
  const styles = useStyles();
  // The latest check is the one a user opens the dialog for.
  const [selected, setSelected] = useState<number>(results[results.length - 1]!.id);
  const current = results.find((r) => r.id === selected) ?? results[results.length - 1]!;
  return (
    <div className={styles.content}>
      <TabList
        className={styles.tabs}
        size="small"
        selectedValue={current.id}
        onTabSelect={(_, d) => setSelected(d.value as number)}
        aria-label={t('Checks')}
      >
        {results.map((r) => (
          <Tab
            key={r.id}
            value={r.id}
            icon={
              r.raw_log ? (
                r.raw_log.success ? (
                  <CheckmarkCircle12Filled className={styles.ok} />
                ) : (
                  <DismissCircle12Filled className={styles.bad} />
                )
              ) : undefined
            }
          >
            {formatDateTime(r.created_at)}
          </Tab>
        ))}
      </TabList>
      <div role="tabpanel" aria-label={formatDateTime(current.created_at)}>
        <CheckResultBody result={current} />
      </div>
    </div>
  );
}

/** The checks one subtask ran: a tab per check (one per attempt), each with its raw log and video; a link to the compare view. */
export function CheckResultsDialog({ subtask, onClose }: { subtask: CheckedSubtask; onClose(): void }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const { data, isPending, isError } = useQuery(checkResultsQuery(subtask.id));
  let body: ReactNode;
  if (isPending) {
    body = (
      <div className={styles.center}>
        <Spinner size="small" label={t('Loading…')} />
      </div>
    );
  } else if (isError || !data?.length) {
    // On failure the tip says why; the dialog stays as it is (spec section 8: no retry).
    body = (
      <div className={styles.empty}>
        <DocumentDismiss24Regular />
        <Text>{t('No Check Logs')}</Text>
      </div>
    );
  } else {
    // The compare link sits with the checks, not in the title: the title names the dialog for screen readers.
    body = (
      <>
        <RouteLink to={pathOf('subtaskCompare', { subtaskID: subtask.id })}>{t('Compare with last pass')}</RouteLink>
        <CheckResultTabs results={data} />
      </>
    );
  }
  return (
    <OkDialog
      title={t('Check Logs')}
      subtitle={
        <>
          {t('SubTask')} #{subtask.id} · {t(Process.label(subtask.process))} · {TestMode.label(subtask.mode)}
          {subtask.site?.name ? ` · ${subtask.site.name}` : ''}
        </>
      }
      size="80vw"
      onClose={onClose}
    >
      {body}
    </OkDialog>
  );
}

/** The Logs button of a subtask row; the dialog mounts only when opened. */
export function CheckLogsButton({ subtask, label = 'Logs' }: { subtask: CheckedSubtask; label?: string }): ReactNode {
  return <DialogButton label={label} dialog={(close) => <CheckResultsDialog subtask={subtask} onClose={close} />} />;
}
