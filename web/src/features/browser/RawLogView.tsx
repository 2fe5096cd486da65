// Everything one check recorded in the browser: outcome, result, step timings, console errors,
// the failure screenshot and the video. Shown in the raw log dialogs and the check results dialog.
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
import { CheckmarkCircle16Filled, DismissCircle16Filled } from '@fluentui/react-icons';
import { Process } from '@shared/enums';
import type { RawLog } from '@shared/schemas/checks';
import type { ReactNode } from 'react';
import { formatDateTime, formatMs, orEmpty } from '@/app/format';
import { useT } from '@/i18n';
import { VideoPlayer } from './VideoPlayer';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, minWidth: 0 },
  facts: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))',
    columnGap: tokens.spacingHorizontalXL,
    rowGap: tokens.spacingVerticalM,
    margin: 0,
  },
  fact: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, minWidth: 0 },
  wideFact: { gridColumn: '1 / -1' },
  term: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
  value: { margin: 0, minWidth: 0, fontWeight: tokens.fontWeightSemibold, wordBreak: 'break-word' },
  // Wide dialogs put the recording beside the findings; narrow ones stack them.
  columns: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    gap: tokens.spacingHorizontalXXL,
    alignItems: 'start',
    '@media (min-width: 1280px)': { gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)' },
  },
  column: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, minWidth: 0 },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  heading: { fontWeight: tokens.fontWeightSemibold },
  pre: {
    margin: 0,
    padding: tokens.spacingHorizontalM,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    maxHeight: '320px',
    overflow: 'auto',
    whiteSpace: 'pre-wrap',
    wordBreak: 'break-all',
  },
  errors: {
    margin: 0,
    paddingLeft: tokens.spacingHorizontalXL,
    color: tokens.colorPaletteRedForeground1,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    wordBreak: 'break-all',
  },
  ms: { textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
  msHead: { '& .fui-TableHeaderCell__button': { justifyContent: 'flex-end' } },
  okCol: { width: '56px' },
  ok: { color: tokens.colorPaletteGreenForeground1, verticalAlign: 'middle' },
  bad: { color: tokens.colorPaletteRedForeground1, verticalAlign: 'middle' },
  screenshot: {
    display: 'block',
    maxWidth: '100%',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** Result objects are shown as indented JSON; plain strings as they are. */
export function formatResult(result: unknown): string {
  if (result === null || result === undefined || result === '') return '';
  if (typeof result === 'string') return result;
  try {
    return JSON.stringify(result, null, 2);
  } catch {
    return String(result);
  }
}

export function OkIcon({ ok, label }: { ok: boolean; label?: string }) {
  const styles = useStyles();
  return ok ? (
    <CheckmarkCircle16Filled className={styles.ok} aria-label={label ?? 'true'} />
  ) : (
    <DismissCircle16Filled className={styles.bad} aria-label={label ?? 'false'} />
  );
}

function Fact({ term, wide, children }: { term: string; wide?: boolean; children: ReactNode }) {
  const styles = useStyles();
  return (
    <div className={wide ? `${styles.fact} ${styles.wideFact}` : styles.fact}>
      <dt className={styles.term}>{term}</dt>
      <dd className={styles.value}>{children}</dd>
    </div>
  );
}

export function RawLogView({ log }: { log: RawLog }) {
  const t = useT();
  const styles = useStyles();
  const result = formatResult(log.result);
  const steps = log.steps ?? [];
  const consoleErrors = log.console_errors ?? [];
  return (
    <div className={styles.root} data-testid="raw-log-view">
      <dl className={styles.facts}>
        <Fact term={t('ID')}>{log.id}</Fact>
        <Fact term={t('Process')}>{t(Process.label(log.process))}</Fact>
        <Fact term={t('BusinessID')}>
          <span title={t('Generally refers to the related CheckLog ID')}>{orEmpty(log.business_id)}</span>
        </Fact>
        <Fact term={t('Finished')}>
          <Badge appearance="tint" color={log.success ? 'success' : 'danger'}>
            {log.success ? t('Yes') : t('No')}
          </Badge>
        </Fact>
        <Fact term={t('Created')}>{formatDateTime(log.created_at)}</Fact>
        <Fact term={t('Remark')} wide>
          {orEmpty(log.remark)}
        </Fact>
      </dl>

      <div className={styles.columns}>
        <div className={styles.column}>
          <section className={styles.section}>
            <Text className={styles.heading}>{t('Result')}</Text>
            {result ? (
              <pre className={styles.pre}>{result}</pre>
            ) : (
              <Text className={styles.muted}>{t('No result')}</Text>
            )}
          </section>

          {steps.length > 0 && (
            <section className={styles.section}>
              <Text className={styles.heading}>{t('Steps')}</Text>
              <Table size="small" aria-label={t('Steps')}>
                <TableHeader>
                  <TableRow>
                    <TableHeaderCell>{t('Step')}</TableHeaderCell>
                    <TableHeaderCell className={styles.msHead}>{t('Timing (ms)')}</TableHeaderCell>
                    <TableHeaderCell className={styles.okCol}>{t('OK')}</TableHeaderCell>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {steps.map((step, i) => (
                    // Step names may repeat (a retried step), so the position is part of the key.
                    <TableRow key={`${i}-${step.name}`}>
                      <TableCell title={step.detail}>{step.name}</TableCell>
                      <TableCell className={styles.ms}>{formatMs(step.ms)}</TableCell>
                      <TableCell className={styles.okCol}>
                        <OkIcon ok={step.ok} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </section>
          )}

          {consoleErrors.length > 0 && (
            <section className={styles.section}>
              <Text className={styles.heading}>{t('Console errors')}</Text>
              <ul className={styles.errors}>
                {consoleErrors.map((line, i) => (
                  <li key={`${i}-${line}`}>{line}</li>
                ))}
              </ul>
            </section>
          )}
        </div>

        <div className={styles.column}>
          <section className={styles.section}>
            <Text className={styles.heading}>{t('Video')}</Text>
            <VideoPlayer video={log.video} />
          </section>

          {log.screenshot_url && (
            <section className={styles.section}>
              <Text className={styles.heading}>{t('Screenshot')}</Text>
              <img className={styles.screenshot} src={log.screenshot_url} alt={t('Screenshot')} />
            </section>
          )}
        </div>
      </div>
    </div>
  );
}
