import { wallClock } from '../../shared/zoneClock.js';
import { Process, TestMode } from '../../shared/enums.js';
import { IncidentEventKind, IncidentStatus } from '../../shared/schemas/incidents.js';
import type { TelegramAnswer } from '../../shared/schemas/telegram.js';
import { config } from '../lib/config.js';
import { ConditionFailedError } from '../lib/db/entity.js';
import { logger } from '../lib/logger.js';
import { maintenanceInForce } from '../maintenance/service.js';
import { TelegramNotConfiguredError } from '../notifications/telegram/errors.js';
import { type Line, toMessageParts } from '../notifications/telegram/formatMessage.js';
import { chatTarget } from '../notifications/telegram/sendToChat.js';
import {
  answerReason,
  editMessageText,
  type InlineKeyboard,
  isUnchangedEdit,
  sendMessage,
  TelegramUnavailableError,
} from '../notifications/telegram/telegramClient.js';
import { TelegramRetryLaterError } from '../notifications/telegram/deliverNotification.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import { bankSubjectLine, isBankIncident } from './bankIncidents.js';
import { underOpenParent } from './correlation.js';
import { enqueueIncidentSync } from './incidentQueue.js';
import { toIncident } from './service.js';
import { incidentStore, type StoredIncident } from './store.js';

// An incident's one Telegram message in the check chat (docs/incidents.md): sent when the incident
// opens, edited in place as it changes (failures counted, acknowledged by whom, snoozed until when),
// edited and replied to when it is resolved, and replied to by the reminders. The notifier runs
// `syncIncidentTelegram` for each `incident` message of the notify queue; every run renders the
// incident as it is now, so runs that overlap end with the message showing the latest state.

const { Acknowledged, Snoozed, Resolved } = IncidentStatus.values;

/** A first send that has not reported back for this long is taken to have died with its writer. */
const SEND_CLAIM_MS = 2 * 60_000;

/** Button data: `i:<incident>:<action>` (Telegram allows 64 bytes). */
export const BUTTONS = {
  acknowledge: 'ack',
  snooze60: 's60',
  snooze240: 's240',
  rerun: 'rerun',
  maintenance: 'mnt',
  // A bank incident's (issue 45): poll the account now, disable it.
  poll: 'poll',
  disable: 'dis',
} as const;
export type ButtonAction = (typeof BUTTONS)[keyof typeof BUTTONS];
export const buttonData = (incidentId: number, action: ButtonAction) => `i:${incidentId}:${action}`;

/** 'YYYY-MM-DD HH:mm' on the configured zone's wall clock. */
function at(ms: number, zone: string): string {
  const c = wallClock(ms, zone);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${c.year}-${p(c.month)}-${p(c.date)} ${p(c.hour)}:${p(c.minute)}`;
}

const incidentLink = (id: number) => new URL(`/incidents/${id}`, `${config.publicUrl}/`).toString();
const what = (i: StoredIncident) =>
  i.process === null || i.mode === null ? '' : `${Process.label(i.process)} (${TestMode.label(i.mode)})`;
/** What the incident is about: the site and its check, or the bank account (and rule). */
const subjectOf = (i: StoredIncident) => (isBankIncident(i) ? bankSubjectLine(i) : `${i.site_name} · ${what(i)}`);

/** The message's text: what broke, since when, how often, and who did what about it. */
export function incidentLines(i: StoredIncident, zone: string, now = Date.now()): Line[] {
  const shown = toIncident(i, now);
  const head =
    shown.status === Resolved
      ? `✅ Resolved: incident #${i.id}`
      : shown.status === Acknowledged
        ? `🟡 Acknowledged: incident #${i.id}`
        : shown.status === Snoozed
          ? `💤 Snoozed: incident #${i.id}`
          : `🔴 Failing: incident #${i.id}`;
  const lines: Line[] = [
    [{ text: head, bold: true }],
    i.cause
      ? [{ text: i.site_name ?? '', bold: true }]
      : isBankIncident(i)
        ? [{ text: bankSubjectLine(i), bold: true }]
        : [{ text: i.site_name ?? '', bold: true }, ` · ${what(i)}`],
    ...(i.cause ? [childrenLine(i)] : []),
    [`Failures: ${i.failures} · since ${at(i.opened_at, zone)} · last ${at(i.last_failure_at, zone)}`],
  ];
  if (i.last_message) lines.push(['Last: ', i.last_message]);
  if (shown.acknowledged_by) lines.push([`Acknowledged by ${shown.acknowledged_by.nickname}`]);
  if (shown.status === Snoozed && shown.snoozed_until) lines.push([`Snoozed until ${at(shown.snoozed_until, zone)}`]);
  if (shown.status === Resolved && shown.resolved_at) lines.push([`Resolved at ${at(shown.resolved_at, zone)}`]);
  const escalated = escalatedTo(i.escalation_step ?? 0);
  if (escalated) lines.push([`Escalated to ${escalated}`]);
  return lines;
}

/** Names a parent's message lists before it says how many more (a message holds 4096 characters). */
const NAMES_SHOWN = 20;

/** A parent's children: how many, and their names (issue 45). */
function childrenLine(i: StoredIncident): Line {
  const names = i.child_names ?? [];
  const more = names.length > NAMES_SHOWN ? ` and ${names.length - NAMES_SHOWN} more` : '';
  return [`${i.children ?? 0} incident(s): ${names.slice(0, NAMES_SHOWN).join(', ')}${more}`];
}

/** Who an escalation step reached (escalation.ts): the original message says so. */
export const escalatedTo = (step: number) =>
  step >= 2 ? 'the escalation chat and the super users' : step === 1 ? 'the escalation chat' : '';

/** The buttons: every action while it is unresolved, only Open once it is. */
export function incidentKeyboard(
  i: Pick<StoredIncident, 'id' | 'status'> & Partial<Pick<StoredIncident, 'kind'>>,
): InlineKeyboard {
  const open = [{ text: 'Open', url: incidentLink(i.id) }];
  if (i.status === Resolved) return { inline_keyboard: [open] };
  if (i.kind !== undefined && isBankIncident({ kind: i.kind }))
    return {
      inline_keyboard: [
        [
          { text: 'Acknowledge', callback_data: buttonData(i.id, BUTTONS.acknowledge) },
          { text: 'Poll now', callback_data: buttonData(i.id, BUTTONS.poll) },
        ],
        [
          { text: 'Snooze 1 h', callback_data: buttonData(i.id, BUTTONS.snooze60) },
          { text: 'Snooze 4 h', callback_data: buttonData(i.id, BUTTONS.snooze240) },
        ],
        [{ text: 'Disable account', callback_data: buttonData(i.id, BUTTONS.disable) }],
        open,
      ],
    };
  return {
    inline_keyboard: [
      [
        { text: 'Acknowledge', callback_data: buttonData(i.id, BUTTONS.acknowledge) },
        { text: 'Re-run', callback_data: buttonData(i.id, BUTTONS.rerun) },
      ],
      [
        { text: 'Snooze 1 h', callback_data: buttonData(i.id, BUTTONS.snooze60) },
        { text: 'Snooze 4 h', callback_data: buttonData(i.id, BUTTONS.snooze240) },
      ],
      [{ text: 'Start maintenance 1 h', callback_data: buttonData(i.id, BUTTONS.maintenance) }],
      open,
    ],
  };
}

const render = (i: StoredIncident, zone: string, now: number) => toMessageParts(incidentLines(i, zone, now))[0];

/** Telegram refused or did not answer: retried by the queue when worth it, logged when not. */
function failed(answer: TelegramAnswer | null, error: string, incidentId: number): undefined {
  const code = answer?.error_code ?? 0;
  if (!answer || code === 429 || code >= 500) throw new TelegramRetryLaterError(error);
  logger.warn('telegram refused an incident message', { incident_id: incidentId, reason: error });
}

async function call(send: () => Promise<TelegramAnswer>): Promise<{ answer: TelegramAnswer | null; error: string }> {
  try {
    const answer = await send();
    return { answer, error: answer.ok ? '' : answerReason(answer) };
  } catch (error) {
    if (!(error instanceof TelegramUnavailableError)) throw error;
    return { answer: null, error: error.message };
  }
}

/**
 * Brings the incident's message up to date: the first send (one writer wins it), then edits until
 * the message shows the incident as it is, the resolution's reply, and the reminder of `remindAt`.
 * Nothing new is sent while a maintenance window covers the site or the incident is snoozed
 * (the resolution's reply then arrives without a sound); edits are silent and still made.
 */
export async function syncIncidentTelegram(
  incidentId: number,
  opts: { remindAt?: number; now?: number; escalate?: boolean; superChats?: () => Promise<string[]> } = {},
) {
  const now = opts.now ?? Date.now();
  const store = incidentStore();
  let incident = await store.get(incidentId);
  if (!incident) return;
  // A check incident goes to the check chat; a bank incident to the bank chat, or its rule's chat.
  const bank = isBankIncident(incident);
  const category = bank ? 'bank' : 'check';
  let target: Awaited<ReturnType<typeof chatTarget>>;
  try {
    target = await chatTarget(category);
  } catch (error) {
    if (error instanceof TelegramNotConfiguredError) return;
    throw error;
  }
  if (!target.settings[`${category}_enabled`] || target.settings[`${category}_channel`]?.state === 'failed') return;
  if (bank && incident.chat_id) target = { ...target, chatId: incident.chat_id };
  const { time_zone: zone, alerts } = await getSystemConfig();
  // Maintenance windows cover sites: a bank incident is never muted by one.
  const muted = !bank && incident.site_id !== null && (await maintenanceInForce(incident.site_id, now)) !== null;
  const snoozed = toIncident(incident, now).status === Snoozed;
  // A child of an open parent sends nothing of its own: the parent's message tells it (issue 45).
  const quiet = await underOpenParent(incident);

  if (!incident.tg_message_id) {
    // Nothing has been sent: a muted or snoozed incident stays quiet, and so does one resolved before.
    if (muted || snoozed || quiet || incident.status === Resolved) return;
    // The group wait: a check incident's first message, and a parent's, waits for siblings (a delayed
    // sync comes then), so a burst with one cause makes one message.
    // A bank account's own incident waits too (its bank's other accounts may join it, same bank); a
    // rule's has no siblings, and a bank parent sends at once.
    const waits = !bank || (incident.rule_id === null && !incident.cause);
    if (waits && now < incident.opened_at + alerts.group_wait_seconds * 1000) return;
    const claimed = await claimFirstSend(incident, now);
    if (!claimed) return;
    const text = render(incident, zone, now);
    const sent = await call(() =>
      sendMessage({
        token: target.token,
        chatId: target.chatId,
        html: text,
        replyMarkup: incidentKeyboard(incident as StoredIncident),
      }),
    );
    const messageId = (sent.answer?.result as { message_id?: number } | undefined)?.message_id;
    if (!sent.answer?.ok || !messageId) {
      await store.update(incidentId, { tg_message_id: undefined, tg_claimed_at: undefined });
      return failed(sent.answer, sent.error, incidentId);
    }
    incident = await store.update(incidentId, { tg_message_id: messageId, tg_chat_id: target.chatId, tg_text: text });
  }

  // Edits until the message shows the incident as stored now (a change made meanwhile is caught up).
  for (let round = 0; round < 3; round++) {
    const current = (await store.get(incidentId)) as StoredIncident;
    const text = render(current, zone, now);
    if (text === current.tg_text) break;
    const edited = await call(() =>
      editMessageText({
        token: target.token,
        chatId: current.tg_chat_id ?? target.chatId,
        messageId: current.tg_message_id as number,
        html: text,
        replyMarkup: incidentKeyboard(current),
      }),
    );
    if (!edited.answer?.ok && !(edited.answer && isUnchangedEdit(edited.answer)))
      return failed(edited.answer, edited.error, incidentId);
    incident = await store.update(incidentId, { tg_text: text });
  }

  if (quiet) return;
  // Only an escalation step's own sync sends its messages: a sync of a failure at the same moment
  // would read the same `tg_escalated` and send them twice.
  if (opts.escalate && !muted && !snoozed && incident.status !== Resolved && (incident.escalation_step ?? 0) > 0)
    incident = await sendEscalations(incident, target, zone, now, opts.superChats);
  const replyTo = { chatId: incident.tg_chat_id ?? target.chatId, messageId: incident.tg_message_id as number };
  if (incident.status === Resolved && !incident.tg_resolved_sent) {
    // One sync sends the reply: the resolution's and an action's (a bank incident's Poll now that
    // resolved it) run at once, and both found it unsent. Taken before the send, given back when
    // Telegram asks for a retry; a crash between the two loses the reply, never doubles it (the
    // message itself already says Resolved).
    try {
      await store.update(
        incidentId,
        { tg_resolved_sent: true },
        { expect: { tg_resolved_sent: incident.tg_resolved_sent } },
      );
    } catch (error) {
      if (error instanceof ConditionFailedError) return;
      throw error;
    }
    const reply = await call(() =>
      sendMessage({
        token: target.token,
        chatId: replyTo.chatId,
        replyToMessageId: replyTo.messageId,
        html: toMessageParts([
          [{ text: `✅ Resolved: ${subjectOf(incident as StoredIncident)}`, bold: true }],
          [
            bank
              ? `After ${incident?.failures} failure(s); ${incident?.rule_id ? "the rule's condition cleared" : 'the account polls well again'}.`
              : `After ${incident?.failures} failure(s); the check passes again.`,
          ],
        ])[0],
        silent: snoozed || muted,
      }),
    );
    if (!reply.answer?.ok) {
      const code = reply.answer?.error_code ?? 0;
      if (!reply.answer || code === 429 || code >= 500) await store.update(incidentId, { tg_resolved_sent: false });
      return failed(reply.answer, reply.error, incidentId);
    }
    return;
  }
  if (opts.remindAt !== undefined && incident.status !== Resolved && !muted && !snoozed) {
    if (incident.tg_reminded_at === opts.remindAt) return;
    const reply = await call(() =>
      sendMessage({
        token: target.token,
        chatId: replyTo.chatId,
        replyToMessageId: replyTo.messageId,
        html: toMessageParts([
          [{ text: `⏰ Still failing: ${subjectOf(incident as StoredIncident)}`, bold: true }],
          [
            `${incident?.failures} failure(s) since ${at((incident as StoredIncident).opened_at, zone)}. Acknowledge or snooze to stop the reminders.`,
          ],
        ])[0],
      }),
    );
    if (!reply.answer?.ok) return failed(reply.answer, reply.error, incidentId);
    await store.update(incidentId, { tg_reminded_at: opts.remindAt });
  }
}

/**
 * An escalation step's messages (escalation.ts takes the step): step 1 to the escalation chat, step
 * 2 to each linked super user's private chat as well; each a copy of the incident's message with
 * its buttons, so an acknowledgement from there stops it. One per (step, chat), recorded as sent,
 * so a sync run again sends none twice; a chat Telegram refuses is recorded too and not retried.
 */
async function sendEscalations(
  incident: StoredIncident,
  target: Awaited<ReturnType<typeof chatTarget>>,
  zone: string,
  now: number,
  superChats: (() => Promise<string[]>) | undefined,
): Promise<StoredIncident> {
  const step = incident.escalation_step ?? 0;
  const escalationChat = target.settings.escalation_chat_id ?? '';
  const wanted = new Set<string>();
  if (escalationChat) wanted.add(escalationChat);
  if (step >= 2 && superChats) for (const chat of await superChats()) wanted.add(chat);
  let current = incident;
  for (const chatId of wanted) {
    if ((current.tg_escalated ?? []).some((e) => e.chat_id === chatId)) continue;
    const sent = await call(() =>
      sendMessage({
        token: target.token,
        chatId,
        html: toMessageParts([
          [{ text: `🚨 Escalated: nobody has acknowledged incident #${incident.id}`, bold: true }],
          ...incidentLines(current, zone, now).slice(1),
        ])[0],
        replyMarkup: incidentKeyboard(current),
      }),
    );
    if (!sent.answer?.ok) failed(sent.answer, sent.error, incident.id);
    const messageId = (sent.answer?.result as { message_id?: number } | undefined)?.message_id ?? 0;
    current = await incidentStore().update(incident.id, {
      tg_escalated: [...(current.tg_escalated ?? []), { step, chat_id: chatId, message_id: messageId }],
    });
  }
  return current;
}

/** The one right to send the first message: a conditional write, retaken when its holder went quiet. */
async function claimFirstSend(incident: StoredIncident, now: number): Promise<boolean> {
  const store = incidentStore();
  try {
    if (incident.tg_message_id === 0) {
      if (now - (incident.tg_claimed_at ?? 0) < SEND_CLAIM_MS) return false;
      await store.update(
        incident.id,
        { tg_claimed_at: now },
        { expect: { tg_message_id: 0, tg_claimed_at: incident.tg_claimed_at } },
      );
    } else {
      await store.update(
        incident.id,
        { tg_message_id: 0, tg_claimed_at: now },
        { expect: { tg_message_id: undefined } },
      );
    }
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

/**
 * The minute tick of incidents (registry `incidentReminder`): snoozes that ran out are ended, and an
 * open incident nobody acknowledged or snoozed is reminded of every `alerts.reminder_minutes`
 * (0: never) by a reply to its message. Each reminder is taken by one conditional write, so two
 * ticks never remind twice. `now` is the tick's time (a test moves it).
 */
export async function remindIncidents(now = Date.now()): Promise<{ reminded: number[]; unsnoozed: number[] }> {
  const store = incidentStore();
  const periodMs = (await getSystemConfig()).alerts.reminder_minutes * 60_000;
  const reminded: number[] = [];
  const unsnoozed: number[] = [];
  for (let incident of await store.unresolved()) {
    try {
      if (incident.status === Snoozed) {
        if ((incident.snoozed_until ?? 0) > now) continue;
        incident = await store.update(
          incident.id,
          // Escalation's clock starts again too: a snooze was somebody's answer (escalation.ts).
          { status: IncidentStatus.values.Open, snoozed_until: null, last_reminded_at: now, escalation_from: now },
          { expect: { status: Snoozed, snoozed_until: incident.snoozed_until } },
        );
        await store.addEvent({
          incident_id: incident.id,
          kind: IncidentEventKind.values.SnoozeEnded,
          at: now,
          subtask_id: null,
          operation_id: null,
          actor: null,
          via: null,
          note: '',
        });
        unsnoozed.push(incident.id);
        await enqueueIncidentSync(incident.id);
        continue;
      }
      const last = incident.last_reminded_at ?? incident.opened_at;
      if (periodMs <= 0 || now - last < periodMs) continue;
      // A child of an open parent is reminded of by its parent (issue 45).
      if (await underOpenParent(incident)) continue;
      if (incident.site_id !== null && (await maintenanceInForce(incident.site_id, now))) continue;
      await store.update(
        incident.id,
        { last_reminded_at: now },
        { expect: { last_reminded_at: incident.last_reminded_at } },
      );
      await store.addEvent({
        incident_id: incident.id,
        kind: IncidentEventKind.values.Reminder,
        at: now,
        subtask_id: null,
        operation_id: null,
        actor: null,
        via: null,
        note: '',
      });
      reminded.push(incident.id);
      await enqueueIncidentSync(incident.id, now);
    } catch (error) {
      // Changed meanwhile (acknowledged, another tick): this tick leaves it.
      if (!(error instanceof ConditionFailedError)) throw error;
    }
  }
  return { reminded, unsnoozed };
}
