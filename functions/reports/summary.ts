// The short Telegram message that goes before a report's CSV and PDF: the period, the checks' overall
// success, the worst site and process, incidents with their mean times, the bank and deliveries, and a
// link to the report in the console. In the report's language; figures as the report page shows them.

import { Process } from '../../shared/enums.js';
import type { Report, ReportLanguage, ReportPeriodValue } from '../../shared/schemas/reports.js';
import { escapeTelegramHtml } from '../notifications/telegram/formatMessage.js';

const TEXTS = {
  en: {
    title: { day: 'Patrol daily report', week: 'Patrol weekly report', month: 'Patrol monthly report' },
    checks: (runs: number, rate: string) => `Checks: ${runs} runs, ${rate} successful`,
    worst: (what: string, rate: string) => `Worst: ${what} ${rate}`,
    incidents: (n: number, ack: string, resolve: string) =>
      `Incidents: ${n}, mean time to acknowledge ${ack}, to resolve ${resolve}`,
    bank: (rate: string, differences: number) =>
      `Bank: polls on time ${rate}, reconciliation differences ${differences}`,
    delivery: (rate: string, failures: number) =>
      `Deliveries: webhooks ${rate} successful, Telegram failures ${failures}`,
    maintenance: (minutes: number) => `Maintenance: ${minutes} min`,
    open: 'Open the report',
    attached: 'CSV and PDF attached.',
  },
  zh: {
    title: { day: 'Patrol 日报', week: 'Patrol 周报', month: 'Patrol 月报' },
    checks: (runs: number, rate: string) => `检查：${runs} 次，成功率 ${rate}`,
    worst: (what: string, rate: string) => `最差：${what} ${rate}`,
    incidents: (n: number, ack: string, resolve: string) =>
      `事件：${n} 个，平均确认时间 ${ack}，平均解决时间 ${resolve}`,
    bank: (rate: string, differences: number) => `银行：按时轮询 ${rate}，对账差异 ${differences}`,
    delivery: (rate: string, failures: number) => `推送：Webhook 成功率 ${rate}，Telegram 失败 ${failures}`,
    maintenance: (minutes: number) => `维护：${minutes} 分钟`,
    open: '打开报告',
    attached: '附 CSV 和 PDF。',
  },
} as const satisfies Record<ReportLanguage, unknown>;

const pct = (rate: number | null) => (rate === null ? '–' : `${(rate * 100).toFixed(1)}%`);
const duration = (ms: number | null) => {
  if (ms === null) return '–';
  const minutes = Math.round(ms / 60_000);
  return minutes < 120 ? `${minutes} min` : `${(minutes / 60).toFixed(1)} h`;
};

export const reportTitle = (period: ReportPeriodValue, language: ReportLanguage) => TEXTS[language].title[period];

/** Telegram HTML, well under a message's 4,096 characters (names are escaped and a line each). */
export function reportSummary(r: Report, link: string): string {
  const t = TEXTS[r.language] ?? TEXTS.en;
  const runs = r.sites.reduce((a, s) => a + s.total.runs, 0);
  const counted = r.sites.reduce((a, s) => a + s.total.runs - s.total.maintenance_runs, 0);
  const passed = r.sites.reduce(
    (a, s) => a + (s.total.success_rate ?? 0) * (s.total.runs - s.total.maintenance_runs),
    0,
  );
  const worst = r.sites
    .flatMap((s) => s.processes.map((p) => ({ s, p })))
    .filter(({ p }) => p.success_rate !== null)
    .sort((a, b) => (a.p.success_rate ?? 1) - (b.p.success_rate ?? 1))[0];
  const lines = [
    `<b>${escapeTelegramHtml(t.title[r.period])}</b> ${r.start}${r.end !== r.start ? ` – ${r.end}` : ''} (${escapeTelegramHtml(r.time_zone)})`,
    t.checks(runs, pct(counted ? passed / counted : null)),
    ...(worst
      ? [
          t.worst(
            escapeTelegramHtml(`${worst.s.site_name} · ${Process.label(worst.p.process)}`),
            pct(worst.p.success_rate),
          ),
        ]
      : []),
    ...(r.maintenance.length ? [t.maintenance(r.maintenance.reduce((a, m) => a + m.minutes, 0))] : []),
    t.incidents(r.incidents.rows.length, duration(r.incidents.ack_mean_ms), duration(r.incidents.resolve_mean_ms)),
    t.bank(pct(r.bank.total.on_time_rate), r.bank.total.unreconciled),
    t.delivery(pct(r.delivery.webhook.success_rate), r.delivery.telegram.failed),
    `<a href="${escapeTelegramHtml(link)}">${escapeTelegramHtml(t.open)}</a> · ${escapeTelegramHtml(t.attached)}`,
  ];
  return lines.join('\n');
}
