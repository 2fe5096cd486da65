// Evidence is read by every operator and kept for months: nothing a check typed into a page (the
// account's password, the session it signed in with) may be in it, even when the site echoes it
// back in a console message, an error text or a URL.

const HIDDEN = '***';

/** Query parameters whose values are secrets whatever they hold. */
const SECRET_PARAM = /pass|pwd|token|secret|key|sig|auth|session|sid|code|otp|captcha|credential/i;

/** Secrets shorter than this are not searched for: a 1-2 character value would blank out ordinary text. */
const MIN_SECRET = 3;

/** `text` with every occurrence of each secret replaced by ***. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET) continue;
    // As typed, and as a URL, a form-encoded query (a space as +: how evidenceUrl writes a query
    // back) or a JSON text carries it.
    for (const form of new Set([
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
      JSON.stringify(secret).slice(1, -1),
    ]))
      out = out.split(form).join(HIDDEN);
  }
  return out;
}

/**
 * A request's address fit to keep: no user info, secret-looking query values replaced, and any
 * secret left in the rest (a path segment) redacted. Anything that does not parse is redacted as text.
 */
export function evidenceUrl(url: string, secrets: readonly string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redactText(url, secrets);
  }
  parsed.username = '';
  parsed.password = '';
  for (const name of [...new Set(parsed.searchParams.keys())]) {
    const values = parsed.searchParams.getAll(name);
    if (SECRET_PARAM.test(name) || values.some((v) => secrets.includes(v))) parsed.searchParams.set(name, HIDDEN);
  }
  // URLSearchParams writes * as %2A; keep the placeholder readable.
  return redactText(parsed.toString().replaceAll('%2A%2A%2A', HIDDEN), secrets);
}

/** A copy of a JSON-like value with every string redacted (a process result the site filled). */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  if (typeof value === 'string') return redactText(value, secrets) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, secrets)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, secrets)])) as T;
  return value;
}
