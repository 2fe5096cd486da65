import { deleteObject } from '../lib/storage/objects.js';

/**
 * The files of an expired row go with it: a video row takes its video, a raw log its screenshot, a
 * report its PDF.
 * This is what makes the configured retention of videos real (the bucket's lifecycle rule is a
 * deploy-time backstop, see docs/deploy.md): locally from the sweeper, in the cloud from the
 * table stream's TTL deletes.
 */
export async function deleteExpiredFiles(old: Record<string, unknown>): Promise<void> {
  const type = typeof old.pk === 'string' ? old.pk.slice(0, old.pk.indexOf('#')) : '';
  const keys =
    type === 'video'
      ? [old.key]
      : type === 'raw_log'
        ? [old.screenshot_key]
        : // A report's PDF (functions/reports/store.ts).
          type === 'report'
          ? [old.pdf_key]
          : [];
  for (const key of keys) if (typeof key === 'string' && key) await deleteObject(key);
}
