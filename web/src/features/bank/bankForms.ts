// Rules of the bank forms and prompts: the server's own schemas (shared/schemas/bank), so both sides
// trim, bound and word the messages the same way (spec section 5).
import { DEFAULT_NEW_ACCOUNT_BANK } from '@shared/constants';
import {
  type BankValue,
  MonitorInterval,
  MonitorRange,
  NewBankAccountBody,
  UpdateBankAccountBody,
} from '@shared/schemas/bank';
import { checkWith } from '@/components/dialog/checkWith';
import type { FormCheck } from '@/components/dialog/useFormDialog';

export interface NewBankAccountForm {
  bank_name: BankValue;
  user: string;
  pwd: string;
}

export const emptyNewBankAccount = (): NewBankAccountForm => ({
  bank_name: DEFAULT_NEW_ACCOUNT_BANK,
  user: '',
  pwd: '',
});

export function checkNewBankAccount(form: NewBankAccountForm): FormCheck<NewBankAccountForm, NewBankAccountBody> {
  return checkWith(NewBankAccountBody, form);
}

/** A one-field prompt (webhook, API key): the trimmed value, or undefined when unchanged. */
export interface PromptForm {
  value: string;
}

const promptCheck =
  <K extends 'webhook' | 'api_key'>(field: K) =>
  (current: string | null) =>
  (form: PromptForm): FormCheck<PromptForm, string> => {
    const parsed = UpdateBankAccountBody.shape[field].unwrap().safeParse(form.value);
    if (!parsed.success) return { errors: { value: parsed.error.issues[0]?.message } };
    const value = parsed.data as string;
    return { body: value === current ? undefined : value };
  };

/** Webhook URL prompt: non-empty, http(s), trimmed (the server also runs the outbound URL guard). */
export const checkWebhook = promptCheck('webhook');
/** API key prompt: non-empty, trimmed. Its current value is never known here, so any value is sent. */
export const checkApiKey = promptCheck('api_key')(null);

/** Monitor interval: an integer 5 to 120, else 'Must between 5 and 120'; empty is invalid. */
export function checkInterval(typed: string): { value: number; error?: never } | { error: string } {
  const text = typed.trim();
  const parsed = MonitorInterval.safeParse(text === '' ? undefined : Number(text));
  return parsed.success ? { value: parsed.data } : { error: parsed.error.issues[0]?.message ?? '' };
}

export type Range = [number, number];

/** Same ranges, whatever their order: saving them again does nothing (spec section 5). */
export function sameRanges(a: readonly Range[], b: readonly Range[]): boolean {
  if (a.length !== b.length) return false;
  const key = (rs: readonly Range[]) =>
    [...rs]
      .sort((x, y) => x[0] - y[0] || x[1] - y[1])
      .map(([s, e]) => `${s}-${e}`)
      .join(',');
  return key(a) === key(b);
}

export type RangeCheck =
  | { kind: 'unchanged' }
  | { kind: 'invalid'; errors: Record<number, string>; message: string }
  | { kind: 'changed'; ranges: Range[] };

/**
 * What saving the edited ranges would do: nothing when they equal the saved ones, refuse them with
 * the shared rule's messages per row (start before end, no overlaps), or send them sorted.
 */
export function checkRanges(saved: readonly Range[], edited: readonly Range[]): RangeCheck {
  if (sameRanges(saved, edited)) return { kind: 'unchanged' };
  const parsed = MonitorRange.safeParse(edited);
  if (parsed.success) return { kind: 'changed', ranges: parsed.data };
  const errors: Record<number, string> = {};
  for (const issue of parsed.error.issues) {
    const row = typeof issue.path[0] === 'number' ? issue.path[0] : -1;
    errors[row] ??= issue.message;
  }
  return { kind: 'invalid', errors, message: parsed.error.issues[0]?.message ?? '' };
}
