/**
 * A secret shown in logs or error texts: enough to tell two values apart, never enough
 * to use. Short values show nothing of themselves.
 */
export function maskSecret(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  if (value.length < 12) return '***';
  return `${value.slice(0, 2)}***${value.slice(-2)}`;
}
