// The print view (`/reports/:id?print=1`), which the PDF printer opens in Chromium (functions/reports):
// A4 pages, the report's own language, and a marker on <body> once the report is drawn.
import { type ReportLanguage, REPORT_READY_ATTRIBUTE } from '@shared/schemas/reports';
import { useEffect, useState } from 'react';
import { currentLocale, i18n } from '@/i18n';

/**
 * Paper: A4 with room at the foot for the printer's page numbers; every table's header repeated on
 * each page (thead), no row split across two, no heading left alone at a page's foot.
 */
export const PRINT_CSS = `
@page { size: A4; margin: 14mm 12mm 18mm 12mm; }
html, body { background: #fff !important; }
thead { display: table-header-group; }
tr, figure, dl > div { break-inside: avoid; page-break-inside: avoid; }
h1, h2, h3 { break-after: avoid; page-break-after: avoid; }
section { break-inside: auto; }
`;

/** A4's width between the print margins (210 − 24 mm at 96 px an inch), for the heatmap drawn to size. */
export const PRINT_WIDTH_PX = 700;

/**
 * The print view speaks the report's language (the config's, when it was made) whatever the browser
 * chose; the console's own language comes back when the page is left. True once the texts are in it.
 */
export function useReportLanguage(language: ReportLanguage | undefined, print: boolean): boolean {
  const [applied, setApplied] = useState<string | null>(null);
  useEffect(() => {
    if (!print || !language) return;
    const before = currentLocale();
    document.documentElement.lang = language;
    void i18n.changeLanguage(language).then(() => setApplied(language));
    return () => {
      document.documentElement.lang = before;
      void i18n.changeLanguage(before);
    };
  }, [language, print]);
  return !print || (language !== undefined && applied === language);
}

/**
 * `document.body.dataset.reportReady`: '1' once the report is on the page in its language (after
 * the fonts and two frames, so the heatmap has measured and drawn), 'failed' if it could not be
 * loaded, so the printer need not wait out its time-out. Removed when the page goes.
 */
export function useReadyMarker(state: 'waiting' | 'drawn' | 'failed'): void {
  useEffect(() => {
    if (state === 'waiting') return;
    let live = true;
    const mark = () => {
      if (live) document.body.dataset[REPORT_READY_ATTRIBUTE] = state === 'drawn' ? '1' : 'failed';
    };
    const fonts = typeof document.fonts?.ready?.then === 'function' ? document.fonts.ready : Promise.resolve();
    void fonts.then(() => requestAnimationFrame(() => requestAnimationFrame(mark)));
    return () => {
      live = false;
      delete document.body.dataset[REPORT_READY_ATTRIBUTE];
    };
  }, [state]);
}
