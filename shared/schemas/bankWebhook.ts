import { z } from 'zod';

// The bank notification webhook body (spec section 1), one definition for both directions: what
// Patrol POSTs to an account's webhook, and what `POST /webhook/bank` accepts from a bank-side
// pusher. bank 1 KBZ / 2 AYA, type 1 Statement / 2 Balance; balances and amounts are numeric
// strings; `sender` is KBZ's only and `send_time` AYA's only (empty otherwise).

/** The inbound webhook's path, outside /api/v1 (its own API Gateway route in the cloud). */
export const INBOUND_BANK_WEBHOOK_PATH = '/webhook/bank';
/** Largest inbound body: a statement or balance is a few hundred bytes. */
export const INBOUND_BANK_WEBHOOK_MAX_BYTES = 64 * 1024;

/** Headers of an outbound delivery (Standard Webhooks, https://www.standardwebhooks.com). */
export const WEBHOOK_HEADERS = {
  apiKey: 'x-api-key',
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

export const WebhookType = { Statement: 1, Balance: 2 } as const;

/** A signed decimal with at most two decimals, as a string: '1200.50', '-30'. */
const NUMERIC = /^-?\d{1,15}(\.\d{1,2})?$/;
const numeric = (field: string) =>
  z
    .string({ error: `${field} must be a numeric string` })
    .regex(NUMERIC, `${field} must be a numeric string like "1200.50"`);
const text = (field: string, max: number) =>
  z.string({ error: `${field} must be a string` }).max(max, `${field} is longer than ${max} characters`);
const bank = z.union([z.literal(1), z.literal(2)], { error: 'bank must be 1 (KBZ) or 2 (AYA)' });
const account = text('account', 64).trim().min(1, 'account (the sub-account number) is required');

export const StatementContent = z.object({
  bank,
  account,
  /** KBZ only; '' for AYA. */
  sender: text('sender', 200).default(''),
  remark: text('remark', 500).default(''),
  /** YYYY-MM-DD in the bank's local time. */
  send_date: z
    .string({ error: 'send_date must be YYYY-MM-DD' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'send_date must be YYYY-MM-DD'),
  /** HH:mm:ss, AYA only; '' for KBZ. */
  send_time: z
    .string({ error: 'send_time must be HH:mm:ss or empty' })
    .regex(/^(\d{2}:\d{2}:\d{2})?$/, 'send_time must be HH:mm:ss or empty')
    .default(''),
  /** Signed: negative for money out. */
  amount: numeric('amount').refine((v) => Number(v) !== 0, 'amount must not be 0'),
});
export type StatementContent = z.infer<typeof StatementContent>;

export const BalanceContent = z.object({
  // Spec section 1: every balance field is a numeric string, bank included; a number is taken too.
  bank: z.union(
    [bank, z.enum(['1', '2'], { error: 'bank must be 1 (KBZ) or 2 (AYA)' }).transform((v) => Number(v) as 1 | 2)],
    {
      error: 'bank must be 1 (KBZ) or 2 (AYA)',
    },
  ),
  account,
  pre_bal: numeric('pre_bal'),
  cur_bal: numeric('cur_bal'),
  amount: numeric('amount'),
});
export type BalanceContent = z.infer<typeof BalanceContent>;

/**
 * What Patrol POSTs to an account's webhook: the same bodies, with the balance content's bank sent
 * as the spec's numeric string ('1' / '2'); a statement's content and the body's own bank stay numbers.
 */
export const OutboundBankWebhookBody = z.discriminatedUnion('type', [
  z.object({ bank, type: z.literal(1), content: StatementContent }),
  z.object({
    bank,
    type: z.literal(2),
    content: BalanceContent.extend({
      bank: z.enum(['1', '2'], { error: 'content.bank of a balance is "1" (KBZ) or "2" (AYA)' }),
    }),
  }),
]);
export type OutboundBankWebhookBody = z.infer<typeof OutboundBankWebhookBody>;

/** `{bank, type, content}`; content.bank must repeat the body's bank. */
export const BankWebhookBody = z
  .discriminatedUnion(
    'type',
    [
      z.object({ bank, type: z.literal(1), content: StatementContent }),
      z.object({ bank, type: z.literal(2), content: BalanceContent }),
    ],
    { error: 'type must be 1 (Statement) or 2 (Balance)' },
  )
  .superRefine((b, ctx) => {
    if (b.content.bank !== b.bank)
      ctx.addIssue({ code: 'custom', path: ['content', 'bank'], message: 'content.bank must equal bank' });
    if (b.type === 1 && b.bank === 2 && b.content.sender)
      ctx.addIssue({ code: 'custom', path: ['content', 'sender'], message: 'sender is for KBZ only; leave it empty' });
    if (b.type === 1 && b.bank === 1 && b.content.send_time)
      ctx.addIssue({
        code: 'custom',
        path: ['content', 'send_time'],
        message: 'send_time is for AYA only; leave it empty',
      });
  });
export type BankWebhookBody = z.infer<typeof BankWebhookBody>;

/** What `POST /webhook/bank` answers. */
export interface InboundBankWebhookReply {
  /** Something new was recorded (a statement, a balance change, or a sub-account's first balance). */
  recorded: boolean;
  /** The same statement or balance had been recorded before: nothing new (a duplicate statement still gets a notification, which ends Duplication). */
  duplicate: boolean;
}

/** POST /notifications-bank/replay: chosen notifications, or every Failed one (of an account). */
export const ReplayBody = z
  .object({
    ids: z
      .array(z.number().int().positive(), { error: 'ids must be a list of notification ids' })
      .max(1000, 'At most 1000 notifications at once')
      .optional(),
    failed: z.literal(true, { error: 'failed must be true' }).optional(),
    account_id: z.number().int().positive().optional(),
  })
  .strict()
  .refine((b) => (b.ids?.length ?? 0) > 0 || b.failed, { message: 'Give ids, or failed: true' });
export type ReplayBody = z.infer<typeof ReplayBody>;

export interface ReplayOutcome {
  /** Notifications sent again (one message per channel). */
  queued: number[];
  /** Chosen ones left alone: already delivered (a receiver that answered 2xx never gets it twice) or unknown. */
  skipped: { id: number; reason: string }[];
}

/** GET /bank/bank-account/{id}/webhook-state: the delivery health of the account's webhook. */
export interface WebhookState {
  account_id: number;
  /** Paused after too many consecutive failures: deliveries end Channel Closed until resumed. */
  paused: boolean;
  paused_at: number | null;
  consecutive_failures: number;
  /** First failure of the current run (ms), null when the last delivery worked. */
  failing_since: number | null;
}

/** GET / POST /bank/bank-account/{id}/webhook-secret. */
export interface RevealedWebhookSecret {
  id: number;
  /** `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
  webhook_secret: string;
}
