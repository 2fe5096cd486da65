import { type Site, siteListFields } from '@shared/schemas/sites';
import { col, defineResource } from '@/components/table';
import { SiteUrlLink } from '@/features/sites/SiteUrlLink';

/**
 * The Sites table as a picker (rule step 2): the same list, search and filters, multi-select,
 * without the Sites screen's actions. Its own name keeps its column settings apart.
 */
export const siteChoiceResource = defineResource<Site>({
  name: 'ruleSiteChoice',
  endpoint: '/sites',
  listFields: siteListFields,
  title: 'Sites',
  rowId: (s) => s.id,
  selectable: true,
  defaultSort: { field: 'created_at', order: 'desc' },
  failureTip: 'Fetch sites failed.',
  columns: [
    col.number('id', 'ID'),
    col.text('name', 'Name', { searchable: true, filter: true }),
    col.text('url', 'URL', { searchable: true, filter: true, render: (s) => <SiteUrlLink url={s.url} /> }),
    col.number('available_account_cnt', 'Valid Accounts', { filter: true }),
    col.boolean('enable', 'Enable', { filter: true }),
    col.datetime('created_at', 'Created At', { sortable: true, filter: 'range' }),
  ],
});
