// The security headers of the console's HTML and assets, one definition for both servers of it:
// the local runner (scripts/local/staticFiles.ts) and CloudFront's response-headers policy
// (infra/constructs/Web.ts).

/**
 * Content-Security-Policy of the console. `videoOrigin` is where presigned video and screenshot
 * addresses point (the video bucket in the cloud, s3rver locally). Styles allow 'unsafe-inline':
 * Fluent UI v9 (Griffel) inserts <style> elements at run time, and a static bucket cannot mint the
 * per-response nonce that would avoid it; scripts stay 'self' only, which is what stops injection.
 * Captcha images are data: URLs.
 */
export function consoleCsp(videoOrigins: readonly string[]): string {
  const media = ["'self'", ...videoOrigins].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src ${media} data:`,
    `media-src ${media}`,
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The other headers, as sent locally; CloudFront's policy sets the same (plus HSTS, HTTPS only). */
export const CONSOLE_HEADERS = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const;
