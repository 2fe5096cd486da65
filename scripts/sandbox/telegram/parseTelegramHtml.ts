// Telegram's `parse_mode: HTML`, as the Bot API documents it: a handful of tags, the four named
// entities and numeric ones; anything else is refused with "can't parse entities", which is what
// makes a Patrol message carrying an unescaped `<script>` fail here as it would on Telegram.

const ALLOWED_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'a',
  'code',
  'pre',
  'tg-spoiler',
  'span',
  'blockquote',
  'tg-emoji',
]);
const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

export type ParsedHtml = { ok: true; text: string } | { ok: false; description: string };

const byteOffset = (s: string, index: number) => Buffer.byteLength(s.slice(0, index), 'utf8');

/** The visible text of an HTML-formatted message, or Telegram's refusal. */
export function parseTelegramHtml(html: string): ParsedHtml {
  let text = '';
  const open: string[] = [];
  let i = 0;
  const fail = (why: string): ParsedHtml => ({ ok: false, description: `Bad Request: can't parse entities: ${why}` });
  while (i < html.length) {
    const c = html[i];
    if (c === '<') {
      const end = html.indexOf('>', i);
      if (end < 0) return fail(`Unclosed start tag at byte offset ${byteOffset(html, i)}`);
      const inner = html.slice(i + 1, end);
      if (inner.startsWith('/')) {
        const name = inner.slice(1).trim().toLowerCase();
        const last = open.pop();
        if (last !== name)
          return fail(
            `Unmatched end tag at byte offset ${byteOffset(html, i)}, expected "</${last ?? ''}>", found "</${name}>"`,
          );
      } else {
        const name = (inner.match(/^[a-zA-Z][a-zA-Z0-9-]*/)?.[0] ?? '').toLowerCase();
        if (!ALLOWED_TAGS.has(name))
          return fail(`Unsupported start tag "${name || inner.slice(0, 10)}" at byte offset ${byteOffset(html, i)}`);
        open.push(name);
      }
      i = end + 1;
    } else if (c === '>') {
      return fail(`Character '>' is reserved and must be escaped at byte offset ${byteOffset(html, i)}`);
    } else if (c === '&') {
      const m = html.slice(i).match(/^&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/);
      if (m) {
        const name = m[1];
        if (name.startsWith('#x')) text += String.fromCodePoint(Number.parseInt(name.slice(2), 16));
        else if (name.startsWith('#')) text += String.fromCodePoint(Number(name.slice(1)));
        else text += NAMED_ENTITIES[name] ?? m[0];
        i += m[0].length;
      } else {
        // Telegram keeps a bare ampersand as it is.
        text += c;
        i++;
      }
    } else {
      text += c;
      i++;
    }
  }
  if (open.length) return fail(`Can't find end tag corresponding to start tag "${open[open.length - 1]}"`);
  return { ok: true, text };
}
