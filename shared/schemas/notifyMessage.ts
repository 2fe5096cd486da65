import { z } from 'zod';

// The notify queue's message: one delivery to do, told apart by `kind`. One consumer (the notifier,
// functions/notifier.ts) reads the queue and hands each kind to its sender, so a
// second delivery kind (bank notifications to their webhook and chat) is one more member here and
// one more entry in the notifier's table, never a second consumer competing for the same queue.

const Id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const NotifyMessage = z.discriminatedUnion('kind', [
  /** A check notification to the check chat (Telegram). */
  z.object({ kind: z.literal('tg_notification'), notification_id: Id }),
  /**
   * An incident's Telegram message brought up to date (sent, edited, its resolution replied to);
   * with `remind_at`, also the reminder of that minute (functions/incidents/incidentTelegram.ts).
   */
  z.object({
    kind: z.literal('incident'),
    incident_id: Id,
    remind_at: z.number().int().positive().optional(),
    /** The sync of an escalation step (issue 45): only it sends the step's messages, so no other sync races it. */
    escalate: z.literal(true).optional(),
  }),
  /**
   * A bank notification to one channel (1 WebHook, 2 TG). `attempt` counts from 1; a retry is the
   * same message with attempt + 1, sent again with a delay (functions/bankWebhook/retryPolicy.ts).
   * `replay`: an operator asked to send it again (new attempts in the history).
   */
  z.object({
    kind: z.literal('bank_notification'),
    notification_id: Id,
    channel: z.union([z.literal(1), z.literal(2)]),
    attempt: z.number().int().min(1).max(100),
    replay: z.boolean().optional(),
  }),
]);
export type NotifyMessage = z.infer<typeof NotifyMessage>;
