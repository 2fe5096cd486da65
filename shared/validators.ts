// The generic validators of spec section 5, once for the web forms and the server schemas:
// required, integer range, min and max length, same-as, must-contain and default-option. Each
// returns a zod schema, so a form and the API body it sends check the same rule with the same text.
import { z } from 'zod';

/** The spec's texts; a caller passes its own where the spec words a field's rule itself. */
export const ValidatorMessages = {
  required: 'Please input here',
  number: 'Please input a number',
  min: (n: number) => `Min is ${n}.`,
  max: (n: number) => `Max is ${n}.`,
  minLength: (n: number) => `min length is ${n}`,
  maxLength: (n: number) => `max length is ${n}`,
  // The spec names these checks but not their texts; callers normally pass the field's own.
  sameAs: 'Not matched',
  mustContain: (part: string) => `Must contain ${part}`,
  defaultOption: 'Please select one',
} as const;

/** 'HH:mm', 24-hour, 00:00 to 23:59: a wall-clock time of day (rule times, maintenance windows). */
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A trimmed, non-empty string. */
export const required = (message: string = ValidatorMessages.required) =>
  z.string({ error: message }).trim().min(1, message);

/** A required, trimmed string of `min` to `max` characters ('min length is N', 'max length is N'). */
export const lengthBetween = (min: number, max: number, requiredMessage?: string) =>
  required(requiredMessage).min(min, ValidatorMessages.minLength(min)).max(max, ValidatorMessages.maxLength(max));

/** At most `max` characters after trimming; empty is allowed. */
export const maxLength = (max: number) => z.string().trim().max(max, ValidatorMessages.maxLength(max));

export interface IntegerRangeMessages {
  /** Empty input. */
  required?: string;
  /** Not an integer. */
  number?: string;
  min?: string;
  max?: string;
}

/**
 * An integer from `min` to `max`, typed (a string, as an input holds it) or given as a number.
 * Empty is invalid. Texts default to 'Please input a number', 'Min is N.' and 'Max is N.'.
 */
export const integerRange = (min: number, max: number, messages: IntegerRangeMessages = {}) => {
  const number = messages.number ?? ValidatorMessages.number;
  return z.union([z.number(), z.string()], { error: number }).transform((input, ctx) => {
    const text = String(input).trim();
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message, input });
      return z.NEVER;
    };
    if (text === '') return fail(messages.required ?? number);
    if (!/^[+-]?\d+$/.test(text)) return fail(number);
    const value = Number(text);
    if (value < min) return fail(messages.min ?? ValidatorMessages.min(min));
    if (value > max) return fail(messages.max ?? ValidatorMessages.max(max));
    return value;
  });
};

/** `schema`, and equal (after trimming) to `other`, the value of the field it repeats. */
export const sameAs = <S extends z.ZodType<string>>(
  schema: S,
  other: string,
  message: string = ValidatorMessages.sameAs,
) => schema.refine((value) => value === other.trim(), message);

/** `schema`, and containing `part`. */
export const mustContain = <S extends z.ZodType<string>>(
  schema: S,
  part: string,
  message: string = ValidatorMessages.mustContain(part),
) => schema.refine((value) => value.includes(part), message);

/** A choice other than the select's placeholder option `placeholder`. */
export const defaultOption = <T>(placeholder: T, message: string = ValidatorMessages.defaultOption) =>
  z.custom<T>((value) => value !== undefined && value !== null && value !== placeholder, message);

/** The first message of a failed check, or undefined when `value` passes. */
export function firstError(schema: z.ZodType, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}
