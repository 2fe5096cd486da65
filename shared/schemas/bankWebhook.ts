import { z } from 'zod';
import { type BankValue, bankValue } from './bank.js';

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
const bank = bankValue('bank must be 1 (KBZ) or 2 (AYA)');
const account = text('account', 64).trim().min(1, 'account (the sub-account number) is required');

// The `.meta({ description })` texts travel into the API document (functions/openapi), and the Help
// page's field tables are read from there: write them for the integrator reading that page.
export const StatementContent = z
  .object({
    bank: bank.meta({ description: "The bank again: 1 = KBZ, 2 = AYA; must equal the body's bank" }),
    account: account.meta({ description: 'The sub-account number the statement belongs to' }),
    /** KBZ only; '' for AYA. */
    sender: text('sender', 200)
      .default('')
      .meta({ description: 'Who sent the money, as the bank shows it; KBZ only, empty for AYA' }),
    remark: text('remark', 500).default('').meta({ description: 'The transaction remark (at most 500 characters)' }),
    /** YYYY-MM-DD in the bank's local time. */
    send_date: z
      .string({ error: 'send_date must be YYYY-MM-DD' })
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'send_date must be YYYY-MM-DD')
      .meta({ description: "Date of the transaction, YYYY-MM-DD in the bank's local time" }),
    /** HH:mm:ss, AYA only; '' for KBZ. */
    send_time: z
      .string({ error: 'send_time must be HH:mm:ss or empty' })
      .regex(/^(\d{2}:\d{2}:\d{2})?$/, 'send_time must be HH:mm:ss or empty')
      .default('')
      .meta({ description: 'Time of the transaction, HH:mm:ss; AYA only, empty for KBZ' }),
    /** Signed: negative for money out. */
    amount: numeric('amount')
      .refine((v) => Number(v) !== 0, 'amount must not be 0')
      .meta({ description: 'Amount as a numeric string with up to two decimals, negative for money out, never 0' }),
  })
  .meta({ title: 'Statement content' });
export type StatementContent = z.infer<typeof StatementContent>;

export const BalanceContent = z
  .object({
    // Spec section 1: every balance field is a numeric string, bank included; a number is taken too.
    bank: z
      .union(
        [
          bank,
          z.enum(['1', '2'], { error: 'bank must be 1 (KBZ) or 2 (AYA)' }).transform((v) => Number(v) as BankValue),
        ],
        {
          error: 'bank must be 1 (KBZ) or 2 (AYA)',
        },
      )
      .meta({
        description: 'The bank again, "1" = KBZ, "2" = AYA (a number is taken too); must equal the body\'s bank',
      }),
    account: account.meta({ description: 'The sub-account number the balance belongs to' }),
    pre_bal: numeric('pre_bal').meta({ description: 'Balance before the change, a numeric string' }),
    cur_bal: numeric('cur_bal').meta({ description: 'Balance now, a numeric string' }),
    amount: numeric('amount').meta({ description: 'The change, cur_bal minus pre_bal, a numeric string' }),
  })
  .meta({ title: 'Balance content' });
export type BalanceContent = z.infer<typeof BalanceContent>;

const bodyBank = bank.meta({ description: 'The bank: 1 = KBZ, 2 = AYA' });
const bodyContent = 'What happened: Statement content when type is 1, Balance content when type is 2';
const bodyType = <T extends 1 | 2>(type: T) =>
  z.literal(type).meta({ description: 'What the notification is: 1 = Statement, 2 = Balance' });

/**
 * What Patrol POSTs to an account's webhook: the same bodies, with the balance content's bank sent
 * as the spec's numeric string ('1' / '2'); a statement's content and the body's own bank stay numbers.
 */
export const OutboundBankWebhookBody = z.discriminatedUnion('type', [
  z
    .object({ bank: bodyBank, type: bodyType(1), content: StatementContent.meta({ description: bodyContent }) })
    .meta({ title: 'Statement' }),
  z
    .object({
      bank: bodyBank,
      type: bodyType(2),
      content: BalanceContent.extend({
        bank: z
          .enum(['1', '2'], { error: 'content.bank of a balance is "1" (KBZ) or "2" (AYA)' })
          .meta({ description: 'The bank again, as a numeric string: "1" = KBZ, "2" = AYA' }),
      }).meta({ description: bodyContent }),
    })
    .meta({ title: 'Balance' }),
]);
export type OutboundBankWebhookBody = z.infer<typeof OutboundBankWebhookBody>;

/** `{bank, type, content}`; content.bank must repeat the body's bank. */
export const BankWebhookBody = z
  .discriminatedUnion(
    'type',
    [
      z
        .object({
          bank: bodyBank,
          type: bodyType(1),
          content: StatementContent.meta({ description: bodyContent }),
        })
        .meta({ title: 'Statement' }),
      z
        .object({
          bank: bodyBank,
          type: bodyType(2),
          content: BalanceContent.meta({ description: bodyContent }),
        })
        .meta({ title: 'Balance' }),
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
  })
  .meta({
    title: 'Bank notification',
    description: '`{bank, type, content}`: a statement (type 1) or a balance (type 2) of a KBZ or AYA sub-account.',
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
