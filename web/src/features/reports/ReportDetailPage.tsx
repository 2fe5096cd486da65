import { Button, makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { ArrowDownloadRegular, PrintRegular } from '@fluentui/react-icons';
import type { Report } from '@shared/schemas/reports';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { LoadFailedPanel, PageHeader } from '@/app/PageHeader';
import { pathOf } from '@/app/paths';
import { useT } from '@/i18n';
import { PRINT_CSS, useReadyMarker, useReportLanguage } from './printView';
import { downloadReport, type ReportFile, reportQuery } from './reportsApi';
import { ReportView, useReportTitle } from './ReportView';

const useStyles = makeStyles({
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  paperTitle: { display: 'block', margin: 0 },
  paperSub: { display: 'block', color: tokens.colorNeutralForeground3 },
});

/** Download CSV / PDF: the session goes with the call (a plain link could not carry it). */
function DownloadButton({ report, kind }: { report: Report; kind: ReportFile }): ReactNode {
  const t = useT();
  const [busy, setBusy] = useState(false);
  // The PDF is printed after the report is made (within a minute or two): until then there is none.
  const printing = kind === 'pdf' && report.pdf_at === null;
  if (printing)
    return (
      <Button icon={<Spinner size="tiny" />} disabled>
        {t('Printing PDF…')}
      </Button>
    );
  return (
    <Button
      icon={busy ? <Spinner size="tiny" /> : <ArrowDownloadRegular />}
      disabled={busy}
      onClick={() => {
        setBusy(true);
        downloadReport(report, kind)
          .catch(() => undefined) // the failure tip has been shown
          .finally(() => setBusy(false));
      }}
    >
      {kind === 'csv' ? t('Download CSV') : t('Download PDF')}
    </Button>
  );
}

/** The screen's header: title, what it covers, the downloads and the print view. */
function ScreenHeader({ report }: { report: Report }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const title = useReportTitle();
  return (
    <PageHeader
      title={title(report)}
      subtitle={t('Time zone: {zone}', { zone: report.time_zone })}
      actions={
        <div className={styles.actions}>
          <DownloadButton report={report} kind="csv" />
          <DownloadButton report={report} kind="pdf" />
          <Button
            as="a"
            appearance="subtle"
            icon={<PrintRegular />}
            href={`${pathOf('reportDetail', { reportID: report.id })}?print=1`}
            target="_blank"
            rel="noopener"
          >
            {t('Print view')}
          </Button>
        </div>
      }
    />
  );
}

/** Paper's header: the title and what it covers, nothing to click. */
function PaperHeader({ report }: { report: Report }): ReactNode {
  const t = useT();
  const styles = useStyles();
  const title = useReportTitle();
  return (
    <header>
      <Text as="h1" size={600} weight="semibold" className={styles.paperTitle}>
        {title(report)}
      </Text>
      <Text className={styles.paperSub}>{t('Time zone: {zone}', { zone: report.time_zone })}</Text>
    </header>
  );
}

/**
 * '/reports/{reportID}': a report as a page, with its CSV and PDF. `?print=1` is the same page for
 * paper (AppShell draws it alone): A4, the report's language, and `body[data-report-ready]` once
 * drawn, which the PDF printer waits for.
 */
export default function ReportDetailPage(): ReactNode {
  const t = useT();
  const id = Number(useParams().reportID);
  const print = useSearchParams()[0].get('print') === '1';
  const { data, isPending, isError } = useQuery(reportQuery(id, !print));
  const inLanguage = useReportLanguage(data?.language, print);
  const drawn = Boolean(data) && inLanguage;
  useReadyMarker(!print ? 'waiting' : isError ? 'failed' : drawn ? 'drawn' : 'waiting');
  if (isError) return <LoadFailedPanel message={t('Fetch report failed.')} />;
  if (isPending || !data || !drawn) return <Spinner label={t('Loading')} />;
  return (
    <>
      {print && <style>{PRINT_CSS}</style>}
      <ReportView
        report={data}
        print={print}
        header={print ? <PaperHeader report={data} /> : <ScreenHeader report={data} />}
      />
    </>
  );
}
