import type { NewAccount, NewSiteBody, RevealedPassword, Site, SiteAccount } from '@shared/schemas/sites';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { queryKeys } from '@/api/queryKeys';
import { request } from '@/api/request';
import { t } from '@/i18n';

/** Resource names: the tables' names and the roots of every query key of this feature (api/queryKeys). */
export const SITES = 'sites';
export const SITE_ACCOUNTS = 'siteAccounts';

/** Everything cached about sites, or about their accounts (lists and a site's accounts). */
export const sitesChanged = (client: QueryClient) => client.invalidateQueries({ queryKey: queryKeys.all(SITES) });
export const siteAccountsChanged = (client: QueryClient) =>
  client.invalidateQueries({ queryKey: queryKeys.all(SITE_ACCOUNTS) });

/** Site and account lists show each other's numbers (Valid Accounts), so a change refreshes both. */
export function refreshSiteLists(client: QueryClient): Promise<void> {
  return Promise.all([sitesChanged(client), siteAccountsChanged(client)]).then(() => undefined);
}

export function createSite(body: Omit<NewSiteBody, 'control'> & { control?: boolean }): Promise<Site> {
  return request<Site>({
    method: 'POST',
    url: '/sites',
    data: body,
    successTip: 'Add site success',
    failureTip: 'Add site failed',
  });
}

type SiteChange = { name: string } | { url: string } | { enable: boolean } | { control: boolean };

export function updateSite(site: Pick<Site, 'id'>, change: SiteChange): Promise<Site> {
  if ('enable' in change || 'control' in change) {
    const field = 'enable' in change ? 'enable' : 'control';
    return request<Site>({
      method: 'PUT',
      url: `/sites/${site.id}`,
      data: change,
      successTip: t('Update {field} success', { field }),
      failureTip: t('Update {field} failed', { field }),
    });
  }
  return request<Site>({
    method: 'PUT',
    url: `/sites/${site.id}`,
    data: change,
    successTip: 'Update Name/URL Success.',
    failureTip: 'Update Name/URL failed.',
  });
}

export function deleteSite(site: Pick<Site, 'id' | 'name'>): Promise<Site> {
  return request<Site>({
    method: 'PUT',
    url: `/sites/${site.id}`,
    data: { delete: 1 },
    successTip: t('Delete site {name} success', { name: site.name }),
    failureTip: t('Delete site {name} failed', { name: site.name }),
  });
}

/**
 * One click on a site's row: a maintenance window for that site from now for an hour (pause: rule
 * slots leave it alone, its incident stays quiet). The Maintenance screen shows and edits it.
 */
export function startSiteMaintenance(site: Pick<Site, 'id' | 'name'>): Promise<unknown> {
  return request<unknown>({
    method: 'POST',
    url: '/maintenance/now',
    data: { site_id: site.id },
    successTip: t('Maintenance of {name} started for 1 h.', { name: site.name }),
    failureTip: t('Could not start the maintenance of {name}.', { name: site.name }),
  });
}

export function addAccounts(siteId: number, accounts: NewAccount[]): Promise<SiteAccount[]> {
  return request<SiteAccount[]>({
    method: 'POST',
    url: `/sites/${siteId}/accounts`,
    data: { accounts },
    successTip: 'Add account success.',
    failureTip: 'Add account failed.',
  });
}

export const siteAccountsQuery = (siteId: number) =>
  queryOptions({
    queryKey: queryKeys.related(SITE_ACCOUNTS, 'site', siteId),
    queryFn: ({ signal }) =>
      request<SiteAccount[]>({ url: `/sites/${siteId}/accounts`, signal, failureTip: 'Fetch site accounts failed.' }),
  });

type AccountChange = { user: string } | { pwd: string } | { enable: boolean };

const accountTips = (change: AccountChange) =>
  'user' in change
    ? { successTip: 'Update User Success.', failureTip: 'Update User failed.' }
    : 'pwd' in change
      ? { successTip: 'Update Pwd Success.', failureTip: 'Update Pwd failed.' }
      : { failureTip: 'Update enable failed.' };

export function updateAccount(account: Pick<SiteAccount, 'id'>, change: AccountChange): Promise<SiteAccount> {
  return request<SiteAccount>({
    method: 'PUT',
    url: `/sites/accounts/${account.id}`,
    data: change,
    ...accountTips(change),
  });
}

/** One account's password, from the audited, rate-limited reveal call; lists never carry it. */
export async function revealAccountPassword(account: Pick<SiteAccount, 'id'>): Promise<string> {
  const revealed = await request<RevealedPassword>({
    url: `/sites/accounts/${account.id}/pwd`,
    failureTip: 'Show password failed.',
  });
  return revealed.pwd;
}
