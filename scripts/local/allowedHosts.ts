/**
 * ALLOWED_PRIVATE_HOSTS as the stack's handlers get it: the environment's entries plus the hosts of
 * the stack's own sandbox targets. The check bench's bare script builds its allow-list here too,
 * so it meets the guard exactly as the engine does.
 */
export function allowedPrivateHostsWith(sandboxUrls: readonly (string | undefined)[]): string {
  return [process.env.ALLOWED_PRIVATE_HOSTS, ...sandboxUrls.map((url) => url && new URL(url).host)]
    .filter(Boolean)
    .join(',');
}
