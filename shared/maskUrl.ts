// Outbound webhook URLs as a viewer sees them (issue 43): a receiver may put a token in its URL's
// user info, query or fragment, so those parts are masked; scheme, host, port and path stay, enough
// to tell which receiver it is. Operators and super users see the URL whole.

const MASK = '***';

/** `url` with user info, query and fragment replaced by ***; anything that does not parse is *** whole. */
export function maskUrl(url: string): string;
export function maskUrl(url: string | null): string | null;
export function maskUrl(url: string | null): string | null {
  if (url === null || url === '') return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return MASK;
  }
  const userInfo = parsed.username || parsed.password ? `${MASK}@` : '';
  const query = parsed.search ? `?${MASK}` : '';
  const fragment = parsed.hash ? `#${MASK}` : '';
  return `${parsed.protocol}//${userInfo}${parsed.host}${parsed.pathname}${query}${fragment}`;
}

/** A copy of `row` with the named URL fields masked. */
export function withMaskedUrls<T extends object, K extends keyof T>(row: T, fields: readonly K[]): T {
  const copy = { ...row };
  for (const f of fields) {
    const value = copy[f];
    if (typeof value === 'string') copy[f] = maskUrl(value) as T[K];
  }
  return copy;
}
