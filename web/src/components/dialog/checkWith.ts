import type { z } from 'zod';
import type { FormCheck, FormErrors } from './useFormDialog';

/**
 * A form rule that runs a shared zod schema (shared/schemas, built from shared/validators), so the
 * form and the server check the same rule with the same words. Messages are keyed by path
 * ('name', 'accounts.0.user'), exactly like the `extra` of a 400 answer; the first per path wins.
 */
export function checkWith<F, S extends z.ZodType>(schema: S, input: unknown): FormCheck<F, z.output<S>> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { body: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[issue.path.map(String).join('.') || 'body'] ??= issue.message;
  return { errors: errors as FormErrors<F> };
}
