import { z } from 'zod';
import type { Figure } from '../alertRules/figures.js';
import { MAX_RULE_LENGTH } from '../alertRules/parse.js';
import { Bank, defineEnum, type EnumValue } from '../enums.js';
import { field, keyOrderFields, type RowOf } from '../listFields.js';
import type { ListFields } from '../listQuery.js';
import { ValidatorMessages } from '../validators.js';
import { Bounds, requiredText } from './common.js';
import { IncidentSeverity, type IncidentSeverityValue } from './incidents.js';
import { CHAT_ID_PATTERN, TelegramMessages } from './telegram.js';

// Alert rules on bank figures (issue 45 item 2): a named condition in the rule language
// (shared/alertRules, grammar in docs/bank-monitor.md), the accounts it watches, a severity and the
// chat its incidents go to (the bank chat when none). The expression's syntax is checked by the
// service with the parser (a 400 naming the column, code 4003), not here: a form shows it as one types.

/** A rule's severity is the severity of the incidents it opens: one enum (shared/schemas/incidents.ts). */
export const AlertSeverity = IncidentSeverity;
export type AlertSeverityValue = IncidentSeverityValue;

export const AlertScopeKind = defineEnum({
  All: ['all', 'Every account'],
  Bank: ['bank', 'One bank'],
  Accounts: ['accounts', 'Chosen accounts'],
});
export type AlertScopeKindValue = EnumValue<typeof AlertScopeKind>;

export const AlertRuleMessages = {
  name: 'Please enter rule name',
  expression: 'Please enter the condition',
  scope: 'Scope must be all, bank or accounts',
  bank: 'Please choose the bank',
  accounts: 'Please choose the accounts',
  accountMissing: (id: number) => `Bank account ${id} does not exist`,
  severity: 'Severity must be info, warning or critical',
  enabled: 'enabled must be true or false',
} as const;

/** Accounts one rule may name; a rule for more is a bank's or everyone's. */
export const MAX_RULE_ACCOUNTS = 100;

/** Where a rule looks: every account, one bank's, or the accounts named. */
export const AlertRuleScope = z
  .object(
    {
      kind: z.enum(['all', 'bank', 'accounts'], { error: AlertRuleMessages.scope }),
      bank: z
        .number({ error: AlertRuleMessages.bank })
        .refine((b) => Bank.has(b), AlertRuleMessages.bank)
        .transform((b) => b as EnumValue<typeof Bank>)
        .nullish(),
      account_ids: z
        .array(z.number({ error: AlertRuleMessages.accounts }).int().positive(), { error: AlertRuleMessages.accounts })
        .max(MAX_RULE_ACCOUNTS, ValidatorMessages.max(MAX_RULE_ACCOUNTS))
        .nullish(),
    },
    { error: AlertRuleMessages.scope },
  )
  .strict()
  .superRefine((s, ctx) => {
    if (s.kind === 'bank' && (s.bank === null || s.bank === undefined))
      ctx.addIssue({ code: 'custom', path: ['bank'], message: AlertRuleMessages.bank });
    if (s.kind === 'accounts' && !s.account_ids?.length)
      ctx.addIssue({ code: 'custom', path: ['account_ids'], message: AlertRuleMessages.accounts });
  })
  // Only what the kind uses is kept, so a stored scope never carries a stale bank or list.
  .transform(
    (s): AlertRuleScope =>
      s.kind === 'bank'
        ? { kind: 'bank', bank: s.bank as EnumValue<typeof Bank> }
        : s.kind === 'accounts'
          ? { kind: 'accounts', account_ids: [...new Set(s.account_ids ?? [])].sort((a, b) => a - b) }
          : { kind: 'all' },
  );
export type AlertRuleScope =
  | { kind: 'all' }
  | { kind: 'bank'; bank: EnumValue<typeof Bank> }
  | { kind: 'accounts'; account_ids: number[] };

const Expression = requiredText(AlertRuleMessages.expression).max(
  MAX_RULE_LENGTH,
  ValidatorMessages.maxLength(MAX_RULE_LENGTH),
);

/** POST /bank/alert-rules, PUT /bank/alert-rules/{id} (the whole rule). */
export const AlertRuleBody = z
  .object({
    name: requiredText(AlertRuleMessages.name).max(Bounds.name, ValidatorMessages.maxLength(Bounds.name)),
    expression: Expression,
    scope: AlertRuleScope,
    severity: z.enum(['info', 'warning', 'critical'], { error: AlertRuleMessages.severity }),
    /** The chat its incidents go to; absent, null or '' for the bank chat. */
    chat_id: z
      .string()
      .trim()
      .max(40)
      .regex(CHAT_ID_PATTERN, TelegramMessages.chatId)
      .or(z.literal(''))
      .nullish()
      .transform((c) => c || null),
    enabled: z.boolean({ error: AlertRuleMessages.enabled }).default(true),
  })
  .strict();
export type AlertRuleBody = z.output<typeof AlertRuleBody>;
export type AlertRuleBodyInput = z.input<typeof AlertRuleBody>;

/** POST /bank/alert-rules/preview. */
export const AlertRulePreviewBody = z.object({ expression: Expression, scope: AlertRuleScope }).strict();
export type AlertRulePreviewBody = z.output<typeof AlertRulePreviewBody>;

/** A rule's row: what a list may do with each field. */
export const alertRuleListFields = {
  ...keyOrderFields,
  name: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  expression: field.text({ filter: 'bounded', search: true }),
  scope: field.shown<AlertRuleScope>(),
  severity: field.enum(AlertSeverity, { sort: 'bounded', filter: 'bounded' }),
  /** null: the bank chat. */
  chat_id: field.text<string | null>({ filter: 'bounded' }),
  enabled: field.boolean({ sort: 'bounded', filter: 'key' }),
} as const satisfies ListFields;

/** GET /bank/alert-rules rows. */
export type AlertRule = RowOf<typeof alertRuleListFields> & { updated_at: number };

/** One instant a previewed rule would have fired: when, on which account, and the deciding figure's value. */
export interface AlertRuleFiring {
  at: number;
  account_id: number;
  /** The figure whose comparison decided it, and its value: an amount, a duration in ms, a status name. */
  figure: Figure | null;
  value: number | string | null;
}

/** POST /bank/alert-rules/preview's answer. */
export interface AlertRulePreview {
  firings: AlertRuleFiring[];
  /** Where the preview stopped short of the 7 days (its read bound), if it did. */
  truncated: boolean;
}
