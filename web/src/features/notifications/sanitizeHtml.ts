import DOMPurify from 'dompurify';

/**
 * Notification bodies are HTML written by the server from site names and check messages, which
 * come from outside; only formatting survives (no scripts, handlers, frames or forms).
 */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe'],
    FORBID_ATTR: ['style'],
  });
}
