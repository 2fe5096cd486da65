// Compare with the last pass: a subtask's deciding attempt beside the last Done run of the same
// (site, process, mode), step by step with both timings, their screenshots and both videos
// (issue 26 item 3). A route of its own (beyond the spec's list) so it can be opened and shared.
import {
  Badge,
  Button,
  Card,
  CardHeader,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowSwapRegular } from '@fluentui/react-icons';
import { Process, TestMode } from '@shared/enums';
import type { AttemptEvidence, StepTiming, Subtask } from '@shared/schemas/checks';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { EMPTY_TEXT } from '@/app/constants';
import { formatDateTime, formatMs } from '@/app/format';
import { PageHeader } from '@/app/PageHeader';
import { pathOf } from '@/app/paths';
import { useT } from '@/i18n';
import { comparisonQuery } from './checksApi';
import { SubtaskOutcome } from './SubtaskOutcome';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  pair: { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: tokens.spacingHorizontalL },
  media: { width: '100%', aspectRatio: '16 / 9', backgroundColor: '#000', borderRadius: tokens.borderRadiusMedium },
  shot: { width: '100%', border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium },
  slower: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
  failed: { color: tokens.colorPaletteRedForeground1 },
});

/** The row button of the subtask tables. */
export function CompareButton({ subtask }: { subtask: Pick<Subtask, 'id'> }): ReactNode {
  const t = useT();
  const navigate = useNavigate();
  return (
    <Button
      size="small"
      icon={<ArrowSwapRegular />}
      onClick={() => navigate(pathOf('subtaskCompare', { subtaskID: subtask.id }))}
    >
      {t('Compare')}
    </Button>
  );
}

/** Steps of both runs in the order they first appear, matched by name. */
function alignSteps(mine: StepTiming[], pass: StepTiming[]): { name: string; mine?: StepTiming; pass?: StepTiming }[] {
  const names = [...new Set([...mine.map((s) => s.name), ...pass.map((s) => s.name)])];
  return names.map((name) => ({
    name,
    mine: mine.find((s) => s.name === name),
    pass: pass.find((s) => s.name === name),
  }));
}

function RunCard({
  title,
  subtask,
  attempt,
}: {
  title: string;
  subtask: Subtask;
  attempt: AttemptEvidence | null;
}): ReactNode {
  const t = useT();
  const styles = useStyles();
  return (
    <Card>
      <CardHeader
        header={
          <Text weight="semibold">
            {t(title)} · {t('SubTask')} #{subtask.id}
          </Text>
        }
        description={
          <span>
            <SubtaskOutcome subtask={subtask} /> {formatDateTime(subtask.end_at)} · {t('Attempts')}:{' '}
            {subtask.attempts ?? EMPTY_TEXT} · {formatMs(subtask.duration_ms)} ms
          </span>
        }
      />
      {attempt?.video?.url ? (
        // biome-ignore lint/a11y/useMediaCaption: a screen recording has no speech to caption
        <video className={styles.media} src={attempt.video.url} controls preload="metadata" aria-label={t(title)} />
      ) : (
        <Text>{t('No video record')}</Text>
      )}
      {attempt?.screenshot_url ? (
        <img className={styles.shot} src={attempt.screenshot_url} alt={t('Screenshot of the failing step')} />
      ) : null}
      {attempt && !attempt.success ? <Text className={styles.failed}>{attempt.msg}</Text> : null}
    </Card>
  );
}

export default function SubtaskComparePage(): ReactNode {
  const t = useT();
  const styles = useStyles();
  const id = Number(useParams().subtaskID);
  const { data, isPending, isError } = useQuery(comparisonQuery(id));
  if (isPending) return <Spinner label={t('Loading')} />;
  if (isError || !data) return <Text>{t('No result')}</Text>;
  const { subtask, attempt, last_pass } = data;
  const steps = alignSteps(attempt?.steps ?? [], last_pass?.attempt?.steps ?? []);
  return (
    <div className={styles.page}>
      <PageHeader
        title={`${t('Compare with last pass')} · ${subtask.site?.name ?? ''} · ${t(Process.label(subtask.process))} (${TestMode.label(subtask.mode)})`}
      />
      {last_pass ? null : (
        <MessageBar intent="info">
          <MessageBarBody>{t('No earlier pass of this site, process and mode to compare with.')}</MessageBarBody>
        </MessageBar>
      )}
      <div className={styles.pair}>
        <RunCard title="This run" subtask={subtask} attempt={attempt} />
        {last_pass ? <RunCard title="Last pass" subtask={last_pass.subtask} attempt={last_pass.attempt} /> : <div />}
      </div>
      <Table size="small" aria-label={t('Steps')}>
        <TableHeader>
          <TableRow>
            <TableHeaderCell>{t('Step')}</TableHeaderCell>
            <TableHeaderCell>{t('This run')}</TableHeaderCell>
            <TableHeaderCell>{t('Last pass')}</TableHeaderCell>
            <TableHeaderCell>{t('Difference')}</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {steps.map((row) => {
            const diff = row.mine && row.pass ? row.mine.ms - row.pass.ms : null;
            const cell = (s?: StepTiming) =>
              s ? (
                <span className={s.ok ? undefined : styles.failed}>
                  {formatMs(s.ms)} ms {s.ok ? '' : <Badge color="danger">{t('Failed')}</Badge>}
                </span>
              ) : (
                EMPTY_TEXT
              );
            return (
              <TableRow key={row.name}>
                <TableCell>{row.name}</TableCell>
                <TableCell>{cell(row.mine)}</TableCell>
                <TableCell>{cell(row.pass)}</TableCell>
                <TableCell>
                  {diff === null ? (
                    EMPTY_TEXT
                  ) : (
                    <span className={diff > 0 && row.pass && diff > row.pass.ms ? styles.slower : undefined}>
                      {diff > 0 ? '+' : ''}
                      {formatMs(diff)} ms
                    </span>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}
