import type { SkippedSite, SkipReason } from '@shared/schemas/autoCheck';
import { t } from '@/i18n';

const SKIP_REASONS: Record<SkipReason, string> = {
  deleted: 'Deleted',
  disabled: 'Disabled',
  no_account: 'No account',
  maintenance: 'Maintenance',
};

/** 'alpha (Disabled), #7 (Deleted)': the sites a run left out, and why. */
export const skippedText = (skipped: readonly SkippedSite[]): string =>
  skipped
    .map((s) => `${s.name ?? `#${s.site_id}`} (${t(SKIP_REASONS[s.reason])}${s.window ? `: ${s.window.name}` : ''})`)
    .join(', ');
