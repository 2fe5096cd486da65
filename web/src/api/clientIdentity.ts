// Headers that tie requests to one browser: a trace id the server hands out once, and a
// fingerprint we compute once. Both live in localStorage so they survive reloads.

export const TRACE_ID_STORAGE_KEY = 'patrol.traceId';
export const FINGERPRINT_STORAGE_KEY = 'patrol.fingerprint';

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage unavailable: the header is simply recomputed next time.
  }
}

export function storedTraceId(): string | null {
  return read(TRACE_ID_STORAGE_KEY);
}

/** The first trace id a response carries is kept; later ones do not replace it. */
export function rememberTraceId(value: string | null): void {
  if (value && !storedTraceId()) write(TRACE_ID_STORAGE_KEY, value);
}

/** 53-bit string hash (cyrb53): stable, fast, and collisions do not matter for this purpose. */
function hash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

function browserTraits(): string {
  const nav = globalThis.navigator;
  const scr = globalThis.screen;
  let timeZone = '';
  try {
    timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    timeZone = '';
  }
  return [
    nav?.userAgent,
    nav?.language,
    (nav?.languages ?? []).join(','),
    nav?.platform,
    nav?.hardwareConcurrency,
    scr?.width,
    scr?.height,
    scr?.colorDepth,
    globalThis.devicePixelRatio,
    timeZone,
  ].join('|');
}

export function browserFingerprint(): string {
  const stored = read(FINGERPRINT_STORAGE_KEY);
  if (stored) return stored;
  const value = hash(browserTraits());
  write(FINGERPRINT_STORAGE_KEY, value);
  return value;
}
