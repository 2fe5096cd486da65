// Not routed: how the sites screen declares its table (spec section 2, "Sites screens").
// The sites issue moves this into features/sites with its dialogs.
import { request } from '@/api/request';
import { t } from '@/i18n';
import { Add20Regular } from '@fluentui/react-icons';
import { col, defineResource, ResourceTable } from '.';

interface Site {
  id: number;
  name: string;
  url: string;
  available_account_cnt: number;
  enable: boolean;
  created_at: number;
}

const updateSite = (site: Site, data: Partial<Pick<Site, 'name' | 'url' | 'enable'>>) =>
  request({
    method: 'PUT',
    url: `/sites/${site.id}`,
    data,
    successTip: 'enable' in data ? 'Update enable success' : 'Update Name/URL Success.',
    failureTip: 'enable' in data ? 'Update enable failed.' : 'Update Name/URL failed.',
  });

export const sitesResource = defineResource<Site>({
  name: 'sites',
  endpoint: '/sites',
  title: 'Sites',
  rowId: (s) => s.id,
  selectable: true,
  defaultSort: { field: 'created_at', order: 'desc' },
  failureTip: 'Fetch sites failed.',
  columns: [
    col.number('id', 'ID'),
    col.text('name', 'Name', { searchable: true, filter: true, edit: { save: (s, name) => updateSite(s, { name }) } }),
    col.text('url', 'URL', {
      searchable: true,
      edit: { save: (s, url) => updateSite(s, { url }), hint: 'Give the full address including http(s)://' },
    }),
    col.number('available_account_cnt', 'Valid Accounts', { filter: true }),
    col.boolean('enable', 'Enable', { filter: true, toggle: (s, enable) => updateSite(s, { enable }) }),
    col.datetime('created_at', 'Created At', { sortable: true, filter: 'range' }),
  ],
  actions: [
    { label: 'NewSite', appearance: 'primary', icon: <Add20Regular />, onClick: () => {} /* opens NewSiteDialog */ },
    {
      label: 'BatchCheck',
      requiresSelection: 'Please select some sites first',
      onClick: ({ selected }) =>
        console.info(
          'batch check',
          selected.map((s) => s.id),
        ),
    },
  ],
  rowActions: [
    { label: 'Accounts', onClick: () => {} /* opens SiteAccountsDialog */ },
    { label: 'Check', onClick: () => {} /* opens SiteCheckDialog */ },
    {
      label: 'Delete',
      confirm: (s) => t('Confirm Delete Site {name}?', { name: s.name }),
      onClick: (s, { refetch }) =>
        request({
          method: 'PUT',
          url: `/sites/${s.id}`,
          data: { delete: 1 },
          successTip: t('Delete site {name} success', { name: s.name }),
          failureTip: t('Delete site {name} failed', { name: s.name }),
        }).then(() => refetch()),
    },
  ],
});

export function SitesTableExample() {
  return <ResourceTable resource={sitesResource} />;
}
