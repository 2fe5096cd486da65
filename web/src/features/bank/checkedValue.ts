import type { z } from 'zod';
import { toast } from '@/app/toast';
import { t } from '@/i18n';

/**
 * Checks an inline edit with the shared schema before it is sent, so a bad value is refused with
 * the server's own words under the field's failure tip, and the popup stays open.
 */
export function checkedValue<V>(schema: z.ZodType<V>, value: unknown, failureTip: string): V {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  toast.error(t(failureTip), t(parsed.error.issues[0]?.message ?? ''));
  throw parsed.error;
}
