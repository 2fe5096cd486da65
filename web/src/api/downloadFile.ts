// Files the API serves behind the session (a report's CSV and PDF): a link cannot carry the
// Authorization header, so the file is fetched through `request` and handed to the browser as a blob.
import { request } from './request';

/** Hands `blob` to the browser's downloads under `fileName`. */
export function saveBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoke later: some browsers start the download only after the click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The file name of a `Content-Disposition` header (RFC 6266: `filename*` first), if it names one. */
export function dispositionFileName(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // Badly encoded: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
  return plain ? (plain[2] ?? plain[1]).trim() : undefined;
}

/**
 * GET `url` (below /api/v1) with the session and save it under the name the server gives, or
 * `fallbackName`. A refusal is shown as `failureTip` like any call's and rethrown.
 */
export async function downloadFile(url: string, fallbackName: string, failureTip: string): Promise<void> {
  let fileName = fallbackName;
  const blob = await request<Blob>({
    url,
    blob: true,
    failureTip,
    onHeaders: (headers) => {
      fileName = dispositionFileName(headers.get('content-disposition')) ?? fallbackName;
    },
  });
  saveBlob(fileName, blob);
}
