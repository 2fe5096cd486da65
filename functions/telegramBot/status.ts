import { IncidentStatus } from '../../shared/schemas/incidents.js';
import { config } from '../lib/config.js';
import { logger } from '../lib/logger.js';
import { incidentKeyboard, incidentLines } from '../incidents/incidentTelegram.js';
import { incidentStore, type StoredIncident } from '../incidents/store.js';
import { toMessageParts } from '../notifications/telegram/formatMessage.js';
import { sendMessage } from '../notifications/telegram/telegramClient.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';

// `/status` sent to the bot (issue 45, docs/incidents.md): the open incidents, each its own message
// with its buttons, so an operator sees and acts on the state from a phone. Parents come first
// (their message names their children, who are not listed again), then the others, newest first.

/** Incidents answered one message each; past it one more message says how many were left out. */
export const STATUS_MAX_MESSAGES = 10;

/** What `/status` lists: unresolved incidents, parents first, children of an open parent left out. */
export function statusOrder(incidents: StoredIncident[]): StoredIncident[] {
  const open = incidents.filter((i) => i.status !== IncidentStatus.values.Resolved);
  const parents = new Set(open.filter((i) => i.cause).map((i) => i.id));
  return open
    .filter((i) => !(i.parent_id && parents.has(i.parent_id)))
    .sort((a, b) => Number(Boolean(b.cause)) - Number(Boolean(a.cause)) || b.opened_at - a.opened_at);
}

/** Answers `/status` in `chatId` (the sender is a linked console user: service.ts checked). */
export async function answerStatus(token: string, chatId: number, now = Date.now()): Promise<void> {
  const zone = (await getSystemConfig()).time_zone;
  const listed = statusOrder(await incidentStore().active());
  const send = (html: string, replyMarkup?: ReturnType<typeof incidentKeyboard>) =>
    sendMessage({ token, chatId: String(chatId), html, replyMarkup, maxWaitSeconds: 5 }).catch((error: unknown) =>
      logger.warn('telegram /status answer not sent', { error: error as Error }),
    );
  if (listed.length === 0) {
    await send(toMessageParts([[{ text: '✅ No open incidents.', bold: true }]])[0]);
    return;
  }
  for (const incident of listed.slice(0, STATUS_MAX_MESSAGES))
    await send(toMessageParts(incidentLines(incident, zone, now))[0], incidentKeyboard(incident));
  if (listed.length > STATUS_MAX_MESSAGES)
    await send(
      toMessageParts([
        [
          `…and ${listed.length - STATUS_MAX_MESSAGES} more: ${new URL('/incidents', `${config.publicUrl}/`).toString()}`,
        ],
      ])[0],
    );
}
