// Telegram messages are built from lines of segments, never from strings with markup in them: every
// text a user or a site supplied is escaped on its way in (renderLine), so a site named
// `<script>` arrives as that text and not as a tag Telegram refuses.
// Length (docs/notifications.md): Telegram takes at most 4,096 characters per message. A message is
// split at line ends into parts of at most 4,096 characters counted on the HTML sent, which is
// never shorter than the text Telegram counts; a single longer line is cut and ends with '…'; at
// most MAX_PARTS parts go out, the last one saying how many lines were left out.
import { TELEGRAM_MESSAGE_LIMIT } from '../../../shared/schemas/telegram.js';

export type Segment = string | { text: string; bold?: boolean; href?: string; code?: boolean };
export type Line = Segment[];

/** Parts one message may become; the rest is summarised in the last part (the detail link is in the first). */
export const MAX_PARTS = 4;

/** Telegram's HTML needs <, > and & escaped in text, and " as well inside an attribute. */
export function escapeTelegramHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
}

function renderSegment(s: Segment): string {
  if (typeof s === 'string') return escapeTelegramHtml(s);
  let out = escapeTelegramHtml(s.text);
  if (s.code) out = `<code>${out}</code>`;
  if (s.bold) out = `<b>${out}</b>`;
  if (s.href) out = `<a href="${escapeTelegramHtml(s.href)}">${out}</a>`;
  return out;
}

export const renderLine = (line: Line): string => line.map(renderSegment).join('');

const withText = (s: Segment, text: string): Segment => (typeof s === 'string' ? text : { ...s, text });
const textOf = (s: Segment) => (typeof s === 'string' ? s : s.text);

/** The line rendered within `limit` characters: whole, or cut inside a segment and ended with '…'. */
export function fitLine(line: Line, limit: number): string {
  const whole = renderLine(line);
  if (whole.length <= limit) return whole;
  let out = '';
  for (const segment of line) {
    const rendered = renderSegment(segment);
    if (out.length + rendered.length + 1 <= limit) {
      out += rendered;
      continue;
    }
    // The longest prefix (whole code points, never half a surrogate pair) that fits with the ellipsis.
    const chars = Array.from(textOf(segment));
    let lo = 0;
    let hi = chars.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      const r = renderSegment(withText(segment, `${chars.slice(0, mid).join('')}…`));
      if (out.length + r.length <= limit) lo = mid;
      else hi = mid - 1;
    }
    const cut = renderSegment(withText(segment, `${chars.slice(0, lo).join('')}…`));
    return out.length + cut.length <= limit ? out + cut : `${out}…`;
  }
  return out;
}

function pack(lines: string[], limit: number): string[] {
  const parts: string[] = [];
  let current: string | undefined;
  for (const line of lines) {
    if (current === undefined) current = line;
    else if (current.length + 1 + line.length <= limit) current += `\n${line}`;
    else {
      parts.push(current);
      current = line;
    }
  }
  if (current !== undefined) parts.push(current);
  return parts;
}

/** The HTML parts to send, in order, each at most `limit` characters. */
export function toMessageParts(lines: Line[], opts: { limit?: number; maxParts?: number } = {}): string[] {
  const limit = opts.limit ?? TELEGRAM_MESSAGE_LIMIT;
  const maxParts = opts.maxParts ?? MAX_PARTS;
  const rendered = lines.map((l) => fitLine(l, limit));
  const parts = pack(rendered, limit);
  if (parts.length <= maxParts) return parts;
  // Too long: fill maxParts, keeping room in the last for the note of what was left out.
  const note = (n: number) =>
    renderLine([{ text: `… ${n} more line(s) not shown; open the detail in Patrol.`, bold: true }]);
  const reserve = note(rendered.length).length + 1;
  const kept: string[] = [];
  let used = 0;
  for (const line of rendered) {
    const trial = pack([...kept, line], limit);
    const last = trial[trial.length - 1];
    if (trial.length > maxParts || (trial.length === maxParts && last.length + reserve > limit)) break;
    kept.push(line);
    used++;
  }
  const out = pack(kept, limit);
  if (!out.length) return [note(rendered.length)];
  out[out.length - 1] += `\n${note(rendered.length - used)}`;
  return out;
}
