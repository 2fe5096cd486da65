import { Add20Regular, PlayCircle20Regular, Wrench20Regular } from '@fluentui/react-icons';
import { NewSiteBody, type Site, siteListFields } from '@shared/schemas/sites';
import type { QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { toast } from '@/app/toast';
import { type ActionContext, col, defineResource, type Resource } from '@/components/table';
import { t } from '@/i18n';
import { SiteUrlLink } from './SiteUrlLink';
import { deleteSite, SITES, siteAccountsChanged, startSiteMaintenance, updateSite } from './sitesApi';

/** The dialogs the Sites screen opens from its table. */
export type SiteDialog =
  | { kind: 'new' }
  | { kind: 'accounts'; site: Site }
  | { kind: 'check'; site: Site }
  | { kind: 'batch'; sites: Site[]; ctx: ActionContext<Site> };

/** Checks an inline edit with the shared schema first, so a bad value is refused with the server's own words. */
function checked<V>(schema: z.ZodType<V>, value: unknown, failureTip: string): V {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const reason = parsed.error.issues[0]?.message ?? '';
  toast.error(t(failureTip), t(reason));
  throw parsed.error;
}

/**
 * The Sites table (spec section 2). `open` shows one of the screen's dialogs; `client` refreshes the
 * Accounts list, which shows site names.
 */
export function sitesResource(open: (dialog: SiteDialog) => void, client: QueryClient): Resource<Site> {
  return defineResource<Site>({
    name: SITES,
    endpoint: '/sites',
    listFields: siteListFields,
    title: 'Sites',
    rowId: (s) => s.id,
    selectable: true,
    defaultSort: { field: 'created_at', order: 'desc' },
    failureTip: 'Fetch sites failed.',
    columns: [
      col.number('id', 'ID'),
      col.text('name', 'Name', {
        searchable: true,
        filter: true,
        edit: {
          save: async (s, value) => {
            const name = checked(NewSiteBody.shape.name, value, 'Update Name/URL failed.');
            await updateSite(s, { name });
            await siteAccountsChanged(client);
          },
        },
      }),
      col.text('url', 'URL', {
        searchable: true,
        filter: true,
        render: (s) => <SiteUrlLink url={s.url} />,
        edit: {
          save: (s, value) => updateSite(s, { url: checked(NewSiteBody.shape.url, value, 'Update Name/URL failed.') }),
          hint: 'Please give the full address including http(s)://',
        },
      }),
      col.number('available_account_cnt', 'Valid Accounts', { filter: true }),
      col.boolean('enable', 'Enable', { filter: true, toggle: (s, enable) => updateSite(s, { enable }) }),
      col.boolean('control', 'Control', {
        filter: true,
        toggle: (s, control) => updateSite(s, { control }),
        help: 'A known-good site: when its check fails, the other failures of those minutes are put under one "Checker unhealthy" incident.',
      }),
      col.datetime('created_at', 'Created At', { sortable: true, filter: 'range' }),
    ],
    actions: [
      {
        label: 'NewSite',
        write: true,
        appearance: 'primary',
        icon: <Add20Regular />,
        onClick: () => open({ kind: 'new' }),
      },
      {
        label: 'BatchCheck',
        write: true,
        icon: <PlayCircle20Regular />,
        requiresSelection: 'Please select some sites first',
        onClick: (ctx) => open({ kind: 'batch', sites: ctx.selected, ctx }),
      },
    ],
    rowActions: [
      { label: 'Accounts', onClick: (site) => open({ kind: 'accounts', site }) },
      { label: 'Check', write: true, onClick: (site) => open({ kind: 'check', site }) },
      // Beyond the spec (issue 27): a one-off pause window for this site, from now for an hour.
      {
        label: 'Maintenance 1 h',
        write: true,
        icon: <Wrench20Regular />,
        onClick: (site) => startSiteMaintenance(site).catch(() => undefined),
      },
      {
        label: 'Delete',
        write: true,
        confirm: (s) => t('Confirm Delete Site {name}?', { name: s.name }),
        onClick: async (s, { refetch }) => {
          await deleteSite(s).catch(() => undefined);
          await Promise.all([refetch(), siteAccountsChanged(client)]);
        },
      },
    ],
  });
}
