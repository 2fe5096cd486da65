import { activeUser } from '../users/service.js';
import { telegramLinkStore } from './linkStore.js';

/**
 * The private chats of the linked super users (issue 45: escalation's second step). A private
 * chat's id is its Telegram user's; a link made in sessions that have ended since (its token
 * version behind the user's), a disabled user or a lower role is left out, as their presses are.
 * The notifier hands this to the incidents' sync (functions/notifier.ts): incidents do not import the bot.
 */
export async function linkedSuperChats(): Promise<string[]> {
  const links = await telegramLinkStore().all();
  const chats = await Promise.all(
    links.map(async (link) => {
      const user = await activeUser(link.id);
      const current = user && (link.token_version ?? 0) === user.token_version;
      return current && user.role === 'super' ? String(link.tg_user_id) : undefined;
    }),
  );
  return chats.filter((c): c is string => c !== undefined);
}
