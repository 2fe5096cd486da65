// The reports' minute tick (registry `reportSchedule`; EventBridge in the cloud, the local timer here):
//   1. each period whose schedule is due (system config `reports.daily|weekly|monthly`, period.ts
//      duePeriod) is generated, printed and sent to the check chat once: a summary message, then the
//      CSV and the PDF as documents;
//   2. reports made by hand (POST /reports) get their PDF printed.
//
// Once per period, like a rule slot (functions/autoCheck/runRuleSlot.ts): the claim `<period>:<start>`
// is a lease (lib/db/lease.ts) taken before any work and completed after the last document; a second
// scheduler finds it held or completed and does nothing. The claim remembers the report it made and
// how many of the three sends went out, so a run that died halfway (a restart, a Lambda timeout) is
// taken over when its hold ends and carries on from there: no second report, no message sent twice
// (except the one whose answer was lost with the process: Telegram has no idempotency key).

import { randomUUID } from 'node:crypto';
import type { ReportPeriodValue, ReportSending } from '../../shared/schemas/reports.js';
import { config } from '../lib/config.js';
import { LeaseStatus, leaseKind } from '../lib/db/lease.js';
import { logger } from '../lib/logger.js';
import { TelegramNotConfiguredError } from '../notifications/telegram/errors.js';
import { chatTarget } from '../notifications/telegram/sendToChat.js';
import { answerReason, sendDocument, sendMessage } from '../notifications/telegram/telegramClient.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import { reportCsv, reportFileName } from './csv.js';
import { duePeriod } from './period.js';
import { createReport, getReport, printReport, unprintedReports } from './service.js';
import { reportStore } from './store.js';
import { reportSummary } from './summary.js';

/** A run's hold on its claim: generating, printing and three sends take well under this. */
export const SEND_HOLD_MS = 10 * 60_000;
/** Claims outlive every period they guard (a month and its catch-up) with room. */
const CLAIM_TTL_S = 400 * 86_400;
/** Reports made by hand are printed if made within this long. */
const PRINT_WITHIN_MS = 24 * 3_600_000;
/** PDFs printed per tick beside the schedule's work (each takes seconds of Chromium). */
const PRINTS_PER_TICK = 3;

interface SendClaim {
  report_id?: number;
  /** Sends done: 1 the summary, 2 the CSV, 3 the PDF. */
  sent?: number;
}
const sendClaims = leaseKind<SendClaim>('report_send', { reusable: false, sk: 'claim', ttlSeconds: CLAIM_TTL_S });

const PERIODS: ReportPeriodValue[] = ['day', 'week', 'month'];

/**
 * REPORTS_SCHEDULE=off: no scheduled report is made or sent (PDFs of reports made by hand still are).
 * For the shared test stack, whose tests' chats must not receive a report none of them asked for; a
 * test of the schedule runs a stack of its own (tests/restarts/reports.test.ts).
 */
const scheduleOff = () => process.env.REPORTS_SCHEDULE === 'off';

export type SendOutcome = 'sent' | 'done' | 'held' | 'not_configured';

class TelegramRefusedError extends Error {
  override name = 'TelegramRefusedError';
}

/** Generates, prints and sends one period's report, once (see the top of the file). */
export async function sendPeriodReport(
  period: ReportPeriodValue,
  start: string,
  now = Date.now(),
): Promise<SendOutcome> {
  const id = `${period}:${start}`;
  // A completed claim is the common case every minute after the send: one small read, no write.
  if ((await sendClaims.read(id))?.status === LeaseStatus.Completed) return 'done';
  const holder = randomUUID();
  const take = await sendClaims.take(id, { holder, now, ms: SEND_HOLD_MS });
  if (!take.taken) return take.record?.status === LeaseStatus.Completed ? 'done' : 'held';
  const claim = take.record.data;
  let reportId = claim.report_id;
  if (reportId === undefined) {
    reportId = (await createReport(period, start, null, now)).row.id;
    await sendClaims.touch(id, { set: { report_id: reportId } });
  }
  await printReport(reportId);
  let target: Awaited<ReturnType<typeof chatTarget>>;
  try {
    target = await chatTarget('check');
  } catch (error) {
    if (!(error instanceof TelegramNotConfiguredError)) throw error;
    // Nowhere to send: the report stays in the list, unsent, and the period is done.
    logger.warn('report not sent: Telegram is not configured', { report_id: reportId, reason: error.message });
    await sendClaims.complete(id, holder);
    return 'not_configured';
  }
  const report = await getReport(reportId);
  // The row as stored (its PDF's key is not in what writes answer).
  const stored = await reportStore().get(reportId);
  const pdf = stored ? await reportStore().pdf(stored) : undefined;
  if (!pdf) throw new Error(`report ${reportId} has no PDF to send`);
  const link = new URL(`/reports/${reportId}`, `${config.publicUrl}/`).toString();
  const sends = [
    () => sendMessage({ token: target.token, chatId: target.chatId, html: reportSummary(report, link) }),
    () =>
      sendDocument({
        token: target.token,
        chatId: target.chatId,
        fileName: reportFileName(report, 'csv'),
        mimeType: 'text/csv',
        bytes: Buffer.from(reportCsv(report), 'utf8'),
      }),
    () =>
      sendDocument({
        token: target.token,
        chatId: target.chatId,
        fileName: reportFileName(report, 'pdf'),
        mimeType: 'application/pdf',
        bytes: pdf,
      }),
  ];
  for (let step = claim.sent ?? 0; step < sends.length; step++) {
    const answer = await sends[step]();
    // Kept held: the hold ends and a later tick carries on from this step.
    if (!answer.ok)
      throw new TelegramRefusedError(`Telegram refused the report's part ${step + 1}: ${answerReason(answer)}`);
    await sendClaims.touch(id, { set: { sent: step + 1 } });
  }
  const sending: ReportSending = { channel: 'telegram', chat_id: target.chatId, sent_at: Date.now(), documents: 2 };
  await reportStore().markSent(reportId, [sending]);
  await sendClaims.complete(id, holder);
  return 'sent';
}

/** One tick: every due period's report, then the PDFs of reports made by hand. */
export async function runReportSchedule(
  now = Date.now(),
): Promise<{ sent: Record<string, SendOutcome>; printed: number[] }> {
  const { reports, time_zone } = await getSystemConfig();
  const sent: Record<string, SendOutcome> = {};
  for (const period of scheduleOff() ? [] : PERIODS) {
    const due = duePeriod(period, reports, now, time_zone);
    if (!due) continue;
    try {
      sent[`${period}:${due.start}`] = await sendPeriodReport(period, due.start, now);
    } catch (error) {
      logger.error('scheduled report not sent; retried when its hold ends', { period, start: due.start, error });
    }
  }
  const printed: number[] = [];
  for (const id of (await unprintedReports(now, PRINT_WITHIN_MS)).slice(0, PRINTS_PER_TICK)) {
    try {
      await printReport(id);
      printed.push(id);
    } catch (error) {
      logger.error('report PDF not printed; tried again next minute', { report_id: id, error });
    }
  }
  return { sent, printed };
}

export const handler = async (): Promise<void> => {
  const outcome = await runReportSchedule();
  if (Object.keys(outcome.sent).length || outcome.printed.length) logger.info('reports tick', outcome);
};
