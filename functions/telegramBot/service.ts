import { randomInt } from 'node:crypto';
import { roleAtLeast } from '../../shared/roles.js';
import { AuditOutcome } from '../../shared/schemas/audit.js';
import type { IncidentActionBody } from '../../shared/schemas/incidents.js';
import {
  LINK_CODE_TTL_MS,
  type TelegramLinkCode,
  type TelegramLinkView,
  type TelegramUpdate,
  type TelegramUser,
} from '../../shared/schemas/telegramBot.js';
import { recordAudit } from '../audit/service.js';
import { BUTTONS, type ButtonAction } from '../incidents/incidentTelegram.js';
import { actOnIncident, type IncidentDeps } from '../incidents/service.js';
import { PatrolError } from '../lib/errors.js';
import type { AuthUser } from '../lib/http/router.js';
import { logger, logSecurityEvent } from '../lib/logger.js';
import { hitRateLimit } from '../lib/rateLimit.js';
import { toMessageParts } from '../notifications/telegram/formatMessage.js';
import { answerCallbackQuery, callBotApi, sendMessage } from '../notifications/telegram/telegramClient.js';
import { telegramBotToken } from '../notifications/telegram/webhook.js';
import { activeUser } from '../users/service.js';
import { telegramLinkStore } from './linkStore.js';
import { answerStatus } from './status.js';

// The bot's side of Telegram (docs/incidents.md "Buttons and linking"): what arrives at the webhook
// (a `/start <code>` that links a console user's Telegram account, a press of an incident's button)
// and the console's link calls. A press acts as the console user its presser is linked to, and only
// a linked operator or super user may press; everyone else is answered "Not allowed".

/** Codes: 8 characters without look-alikes (0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;
/** /start attempts per Telegram account, so a code cannot be guessed by trying. */
const START_LIMIT = { name: 'tg-start', limit: 5, windowSeconds: 600 };

/**
 * The webhook's budgets (issue 43): per Telegram account, so no sender spends another's. A linked
 * account's is more than a person presses; an unlinked one's is small, and all unlinked accounts
 * together share one more, which no linked account's delivery counts against.
 */
export const WEBHOOK_BUDGETS = {
  linked: { name: 'tg-linked', limit: 60, windowSeconds: 60 },
  unlinked: { name: 'tg-unlinked', limit: 10, windowSeconds: 60 },
  allUnlinked: { name: 'tg-unlinked-all', limit: 300, windowSeconds: 60 },
} as const;

export const NOT_ALLOWED = 'Not allowed';
export const UNKNOWN_BUTTON = 'Unknown button';
/** What a chat is told when its link ended with the user's sessions. */
export const LINK_ENDED =
  'Unlinked: the Patrol sessions this link was made in have ended. Link again from Patrol, Settings.';

const newCode = () =>
  Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

let botUsername: string | null | undefined;
/** The bot's @username from getMe, asked once per process (for the t.me link on the Settings page). */
async function botName(token: string): Promise<string | null> {
  if (botUsername !== undefined) return botUsername;
  try {
    const me = await callBotApi('getMe', {}, { token, maxWaitSeconds: 2 });
    botUsername = me.ok ? ((me.result as { username?: string }).username ?? null) : null;
  } catch {
    return null;
  }
  return botUsername;
}

/** POST /telegram/link-code: a one-time code for `/start <code>`, valid for ten minutes. */
export async function newLinkCode(user: AuthUser, now = Date.now()): Promise<TelegramLinkCode> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = newCode();
    if (!(await telegramLinkStore().putCode(code, user.id, now + LINK_CODE_TTL_MS))) continue;
    const token = await telegramBotToken();
    return { token: code, expires_at: now + LINK_CODE_TTL_MS, bot_username: token ? await botName(token) : null };
  }
  throw new Error('No free link code was found');
}

/** GET /telegram/link. */
export async function linkOf(user: AuthUser): Promise<TelegramLinkView> {
  const link = await telegramLinkStore().byUser(user.id);
  return link
    ? {
        linked: true,
        telegram: { id: link.tg_user_id, username: link.tg_username, name: link.tg_name },
        linked_at: link.created_at,
      }
    : { linked: false, telegram: null, linked_at: null };
}

/** DELETE /telegram/link: the button presses of that Telegram account stop acting as this user. */
export async function unlink(user: AuthUser): Promise<TelegramLinkView> {
  await telegramLinkStore().unlink(user.id);
  return linkOf(user);
}

async function reply(chatId: number, text: string): Promise<void> {
  const token = await telegramBotToken();
  if (!token) return;
  await sendMessage({ token, chatId: String(chatId), html: toMessageParts([[text]])[0], maxWaitSeconds: 5 }).catch(
    (error: unknown) => logger.warn('telegram reply not sent', { error: error as Error }),
  );
}

/** `/start <code>` from a Telegram user: links that account to the code's console user, once. */
async function start(from: TelegramUser, chatId: number, code: string, now: number): Promise<void> {
  const limit = await hitRateLimit(START_LIMIT, String(from.id), now);
  if (!limit.allowed) return reply(chatId, `Too many attempts; try again in ${limit.retryAfterSeconds} s.`);
  const taken = code ? await telegramLinkStore().takeCode(code.trim().toUpperCase()) : undefined;
  const user = taken && now - taken.madeAt <= LINK_CODE_TTL_MS ? await activeUser(taken.userId) : undefined;
  if (!taken || !user) {
    logSecurityEvent({
      event: 'telegram_link',
      actor: `telegram#${from.id}`,
      outcome: 'refused',
      reason: 'unknown or expired code',
    });
    return reply(chatId, 'This code is unknown or expired. Open Patrol, Settings, and get a new one.');
  }
  const linked = await telegramLinkStore().link(user.id, {
    tg_user_id: from.id,
    tg_username: from.username ?? null,
    tg_name: from.first_name ?? null,
    token_version: user.token_version,
  });
  if (!linked) return reply(chatId, 'This Telegram account is linked to another Patrol user. Unlink it there first.');
  await recordAudit({
    actor_id: user.id,
    actor_name: user.username,
    action: 'telegram.link',
    target: `user#${user.id}`,
    target_type: 'user',
    target_id: user.id,
    input: JSON.stringify({ telegram_user_id: from.id, telegram_username: from.username ?? null }),
    client_ip: 'telegram',
    status: 200,
    outcome: AuditOutcome.Allowed,
    at: now,
  });
  return reply(chatId, `Linked: your button presses act as ${user.nickname} in Patrol.`);
}

const ACTIONS: Readonly<Record<ButtonAction, IncidentActionBody>> = {
  [BUTTONS.acknowledge]: { action: 'acknowledge' },
  [BUTTONS.snooze60]: { action: 'snooze', minutes: 60 },
  [BUTTONS.snooze240]: { action: 'snooze', minutes: 240 },
  [BUTTONS.rerun]: { action: 'rerun' },
  [BUTTONS.maintenance]: { action: 'maintenance' },
  [BUTTONS.poll]: { action: 'poll' },
  [BUTTONS.disable]: { action: 'disable' },
};

const DONE: Record<IncidentActionBody['action'], string> = {
  acknowledge: 'Acknowledged',
  snooze: 'Snoozed',
  rerun: 'Re-run started',
  maintenance: 'Maintenance started for 1 h',
  poll: 'Polled',
  disable: 'Account disabled',
};

/**
 * The console user a press acts as: the link's user while active and while the link's token version
 * is the user's (the sessions it was made in have not ended). A link left from ended sessions (its
 * ending was not heard, or it raced a press) is ended here, and its chat told.
 */
async function currentLinkUser(userId: number, tgUserId: number) {
  const [link, user] = await Promise.all([telegramLinkStore().byUser(userId), activeUser(userId)]);
  if (!link || link.tg_user_id !== tgUserId || !user) return undefined;
  if ((link.token_version ?? 0) === user.token_version) return user;
  await endTelegramLink(userId);
  return undefined;
}

/**
 * Ends a user's Telegram link because the user's sessions ended (registered with
 * users/sessionsEnded.ts by functions/api.ts), and tells its chat at once.
 */
export async function endTelegramLink(userId: number): Promise<void> {
  const ended = await telegramLinkStore().unlink(userId);
  if (!ended) return;
  logSecurityEvent({
    event: 'telegram_unlink',
    actor: 'system',
    target: `user#${userId}`,
    outcome: 'success',
    reason: 'sessions ended',
  });
  // A private chat's id is its user's id: the presser's own chat with the bot.
  await reply(ended.tg_user_id, LINK_ENDED);
}

/**
 * A press of an incident's button: the presser's linked console user, an operator or above, does
 * what the button says, recorded in the audit log as that user. Answered (answerCallbackQuery) with
 * what happened, or "Not allowed" and nothing changes.
 */
async function press(
  cq: NonNullable<TelegramUpdate['callback_query']>,
  userId: number | undefined,
  requestId: string,
  deps: IncidentDeps,
  now: number,
): Promise<void> {
  if (!(await telegramBotToken())) return;
  const answer = (text: string) => answerPress(cq.id, text);
  const m = /^i:(\d{1,15}):([a-z0-9]+)$/.exec(cq.data ?? '');
  // The table's own keys only: a forged name like 'constructor' must not read the prototype.
  const action = m && Object.hasOwn(ACTIONS, m[2]) ? ACTIONS[m[2] as ButtonAction] : undefined;
  if (!m || !action) {
    await answer(UNKNOWN_BUTTON);
    return;
  }
  const incidentId = Number(m[1]);
  const user = userId === undefined ? undefined : await currentLinkUser(userId, cq.from.id);
  const audit = (status: number) =>
    user
      ? recordAudit({
          actor_id: user.id,
          actor_name: user.username,
          action: 'incident.action',
          target: `incident#${incidentId}`,
          target_type: 'incident',
          target_id: incidentId,
          input: JSON.stringify({ ...action, via: 'telegram', telegram_user_id: cq.from.id }),
          client_ip: 'telegram',
          request_id: requestId,
          status,
          outcome: status < 400 ? AuditOutcome.Allowed : AuditOutcome.Refused,
          at: now,
        })
      : undefined;
  if (!user || !roleAtLeast(user.role, 'operator')) {
    logSecurityEvent({
      event: 'telegram_press',
      actor: user ? user.id : `telegram#${cq.from.id}`,
      target: `incident#${incidentId}`,
      outcome: 'refused',
      reason: user ? 'viewer' : 'not linked',
    });
    await audit(403);
    await answer(NOT_ALLOWED);
    return;
  }
  try {
    await actOnIncident(incidentId, action, user, 'telegram', deps, now);
  } catch (error) {
    if (!(error instanceof PatrolError) || error.status >= 500) throw error;
    await audit(error.status);
    await answer(error.message);
    return;
  }
  await audit(200);
  await answer(DONE[action.action]);
}

/**
 * `/status` (issue 45): the open incidents, from a linked account (a viewer too: it reads, and its
 * presses are refused anyway); anyone else is answered "Not allowed", as a press of theirs is.
 */
async function status(from: TelegramUser, chatId: number, userId: number | undefined, now: number): Promise<void> {
  const token = await telegramBotToken();
  if (!token) return;
  const user = userId === undefined ? undefined : await currentLinkUser(userId, from.id);
  if (!user) return reply(chatId, NOT_ALLOWED);
  await answerStatus(token, chatId, now);
}

/** Counts a delivery against its sender's budget (WEBHOOK_BUDGETS). */
async function spendBudget(tgUserId: number, linked: boolean, now: number) {
  if (linked) return hitRateLimit(WEBHOOK_BUDGETS.linked, String(tgUserId), now);
  const own = await hitRateLimit(WEBHOOK_BUDGETS.unlinked, String(tgUserId), now);
  return own.allowed ? hitRateLimit(WEBHOOK_BUDGETS.allUnlinked, 'all', now) : own;
}

async function answerPress(callbackQueryId: string, text: string): Promise<void> {
  const token = await telegramBotToken();
  if (!token) return;
  await answerCallbackQuery({ token, callbackQueryId, text }).catch((error: unknown) =>
    logger.warn('telegram callback not answered', { error: error as Error }),
  );
}

/**
 * One webhook delivery. Telegram delivers an update again until it is answered 2xx, so what cannot
 * be acted on is answered 200 and dropped; only a failure of ours (the table) is a 500, retried.
 */
export async function handleTelegramUpdate(
  update: TelegramUpdate,
  requestId: string,
  deps: IncidentDeps,
  now = Date.now(),
) {
  const from = update.callback_query?.from ?? update.message?.from;
  if (!from) return { ok: true };
  const userId = await telegramLinkStore().userOf(from.id);
  const budget = await spendBudget(from.id, userId !== undefined, now);
  if (!budget.allowed) {
    // A linked person is told to wait; an unlinked sender's flood costs no Bot API call.
    if (userId !== undefined && update.callback_query)
      await answerPress(update.callback_query.id, `Too many presses; try again in ${budget.retryAfterSeconds} s.`);
    return { ok: true };
  }
  if (update.callback_query) await press(update.callback_query, userId, requestId, deps, now);
  else if (update.message?.text && update.message.from) {
    const m = /^\/start(?:@\w+)?(?:\s+(\S+))?\s*$/.exec(update.message.text.trim());
    if (m) await start(update.message.from, update.message.chat.id, m[1] ?? '', now);
    else if (/^\/status(?:@\w+)?\s*$/.test(update.message.text.trim()))
      await status(update.message.from, update.message.chat.id, userId, now);
  }
  return { ok: true };
}
