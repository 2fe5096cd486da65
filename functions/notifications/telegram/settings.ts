import type { z } from 'zod';
import {
  type TelegramCategory,
  TelegramMessages,
  type TelegramSettingsInput,
  type TelegramSettingsView,
  type TelegramTestReply,
} from '../../../shared/schemas/telegram.js';
import { ValidationError } from '../../lib/errors.js';
import type { AuthUser } from '../../lib/http/router.js';
import { encryptSecret, maskSecret } from '../../lib/secrets/index.js';
import { type Line, toMessageParts } from './formatMessage.js';
import { chatTarget, sendToChat } from './sendToChat.js';
import {
  type StoredTelegramSettings,
  TOKEN_CONTEXT,
  telegramSettingsStore,
  UNKNOWN_CHANNEL,
  UNKNOWN_WEBHOOK,
} from './settingsStore.js';
import { registerTelegramWebhook } from './webhook.js';

/** The parsed body; callers of the code (the demo's seed) may leave the escalation chat out. */
type ParsedInput = Omit<z.output<typeof TelegramSettingsInput>, 'escalation_chat_id'> & { escalation_chat_id?: string };

function view(row: StoredTelegramSettings | undefined): TelegramSettingsView {
  return {
    bot_token: row?.bot_token_hint ?? '',
    bot_token_set: Boolean(row?.bot_token_hint),
    check_chat_id: row?.check_chat_id ?? '',
    bank_chat_id: row?.bank_chat_id ?? '',
    check_enabled: row?.check_enabled ?? false,
    bank_enabled: row?.bank_enabled ?? false,
    per_subtask: row?.per_subtask ?? false,
    escalation_chat_id: row?.escalation_chat_id ?? '',
    channels: { check: row?.check_channel ?? UNKNOWN_CHANNEL, bank: row?.bank_channel ?? UNKNOWN_CHANNEL },
    webhook: row?.webhook ?? UNKNOWN_WEBHOOK,
    updated_at: row?.updated_at ?? null,
    updated_by: row?.updated_by ? { nickname: row.updated_by.nickname } : null,
  };
}

/** GET /super/notification/tg: the settings; the token only as a masked hint. */
export async function readTelegramSettings(): Promise<TelegramSettingsView> {
  return view(await telegramSettingsStore().get());
}

/**
 * PUT /super/notification/tg. A new token is encrypted before it is stored; a category switched on
 * needs a token. Saving clears a chat's Failed mark when its chat changed or the token did: the
 * operator has acted on it (a test message clears it too). Saving with a token registers the bot's
 * webhook (webhook.ts); its outcome is in the reply's `webhook`.
 */
export async function saveTelegramSettings(actor: AuthUser, input: ParsedInput): Promise<TelegramSettingsView> {
  const store = telegramSettingsStore();
  const current = await store.withToken();
  const tokenChanged = input.bot_token !== undefined;
  const hasToken = tokenChanged ? input.bot_token !== '' : Boolean(current?.bot_token_enc);
  if (!hasToken && (input.check_enabled || input.bank_enabled))
    throw new ValidationError({ bot_token: TelegramMessages.needToken });
  const channel = (category: TelegramCategory) => {
    const before = current?.[`${category}_channel`] ?? UNKNOWN_CHANNEL;
    const chatChanged = current?.[`${category}_chat_id`] !== input[`${category}_chat_id`];
    return tokenChanged || chatChanged ? UNKNOWN_CHANNEL : before;
  };
  let bot_token_enc = current?.bot_token_enc ?? null;
  let bot_token_hint = current?.bot_token_hint ?? '';
  if (tokenChanged) {
    bot_token_enc = input.bot_token ? await encryptSecret(input.bot_token, TOKEN_CONTEXT) : null;
    bot_token_hint = input.bot_token ? maskSecret(input.bot_token) : '';
  }
  await store.save({
    bot_token_enc,
    bot_token_hint,
    check_chat_id: input.check_chat_id,
    bank_chat_id: input.bank_chat_id,
    check_enabled: input.check_enabled,
    bank_enabled: input.bank_enabled,
    per_subtask: input.per_subtask,
    escalation_chat_id: input.escalation_chat_id ?? '',
    check_channel: channel('check'),
    bank_channel: channel('bank'),
    updated_at: Date.now(),
    updated_by: { id: actor.id, nickname: actor.nickname },
  });
  // Button presses and /start reach the product only through the webhook: registered at every save.
  await registerTelegramWebhook();
  return readTelegramSettings();
}

/**
 * POST /super/notification/tg/test: one message to a category's chat, whether or not the category
 * is switched on (that is what one checks before switching it on). Answers with what Telegram
 * answered, refusals included: the page shows it.
 */
export async function sendTelegramTest(category: TelegramCategory, actor: AuthUser): Promise<TelegramTestReply> {
  const target = await chatTarget(category);
  const lines: Line[] = [
    [{ text: 'Patrol test message', bold: true }],
    [`Category: ${category} notifications`],
    [`Sent by ${actor.nickname} at ${new Date().toISOString()}`],
  ];
  const outcome = await sendToChat(category, toMessageParts(lines), { target, maxWaitSeconds: 10 });
  const answer = outcome.ok ? outcome.answers[outcome.answers.length - 1] : outcome.answer;
  return {
    category,
    chat_id: target.chatId,
    ok: outcome.ok,
    answer: answer ?? null,
    error: outcome.ok ? null : outcome.reason,
  };
}
