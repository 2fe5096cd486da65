import { z } from 'zod';
import type { AuthType, SiteAccountStatus } from '../enums.js';
import type { ListFields } from '../listQuery.js';
import { httpUrl, requiredText } from './common.js';

// Sites and the login accounts the bot uses on them (spec sections 3, 5, 7).

export const SiteMessages = {
  name: 'Please enter site name',
  url: 'Please enter site url',
  urlInvalid: 'Please give the full address including http(s)://',
  user: 'Please enter this account',
  pwd: 'Please enter this password',
  enable: 'enable must be true or false',
} as const;

export const NewAccount = z.object({
  user: requiredText(SiteMessages.user),
  pwd: requiredText(SiteMessages.pwd),
});
export type NewAccount = z.infer<typeof NewAccount>;

export const NewSiteBody = z.object({
  name: requiredText(SiteMessages.name).max(100, 'max length is 100'),
  url: httpUrl(SiteMessages.url, SiteMessages.urlInvalid),
  accounts: z.array(NewAccount).max(200).default([]),
});
export type NewSiteBody = z.infer<typeof NewSiteBody>;

/** PUT /sites/{id}: exactly one of name, url, enable, or delete = 1. */
export const UpdateSiteBody = z.union(
  [
    z.object({ name: requiredText(SiteMessages.name).max(100, 'max length is 100') }).strict(),
    z.object({ url: httpUrl(SiteMessages.url, SiteMessages.urlInvalid) }).strict(),
    z.object({ enable: z.boolean({ error: SiteMessages.enable }) }).strict(),
    z.object({ delete: z.literal(1, { error: 'delete must be 1' }) }).strict(),
  ],
  { error: 'Give one of name, url, enable or delete' },
);
export type UpdateSiteBody = z.infer<typeof UpdateSiteBody>;

export const AddAccountsBody = z.object({ accounts: z.array(NewAccount).max(200) });
export type AddAccountsBody = z.infer<typeof AddAccountsBody>;

/** PUT /sites/accounts/{id}: exactly one of user, pwd, enable. */
export const UpdateAccountBody = z.union(
  [
    z.object({ user: requiredText(SiteMessages.user) }).strict(),
    z.object({ pwd: requiredText(SiteMessages.pwd) }).strict(),
    z.object({ enable: z.boolean({ error: SiteMessages.enable }) }).strict(),
  ],
  { error: 'Give one of user, pwd or enable' },
);
export type UpdateAccountBody = z.infer<typeof UpdateAccountBody>;

export interface Site {
  id: number;
  name: string;
  url: string;
  /** Enabled accounts of the site. */
  available_account_cnt: number;
  enable: boolean;
  created_at: number;
  updated_at?: number;
}

export interface SiteAccount {
  id: number;
  site_id: number;
  user: string;
  /** No password: replies, lists and exports never carry one; GET /sites/accounts/{id}/pwd reveals one. */
  enable: boolean;
  status: (typeof SiteAccountStatus.values)[keyof typeof SiteAccountStatus.values];
  created_at: number;
  site: { name: string } | null;
}

/** GET /sites/accounts/{id}/pwd: one account's password, rate limited and audited. */
export interface RevealedPassword {
  id: number;
  pwd: string;
}

/** A session a login check captured for an account (GET /sites/accounts/tokens). */
export interface SiteAccountToken {
  id: number;
  site_id: number;
  account_id: number;
  account: { user: string } | null;
  site: { name: string } | null;
  auth_type: (typeof AuthType.values)[keyof typeof AuthType.values];
  created_at: number;
  /** When the session stops being valid, ms; null when unknown. */
  expire_at: number | null;
}

export const siteListFields = {
  id: 'number',
  name: 'text',
  url: 'text',
  available_account_cnt: 'number',
  enable: 'boolean',
  created_at: 'datetime',
} as const satisfies ListFields;

export const siteAccountListFields = {
  id: 'number',
  site_id: 'number',
  user: 'text',
  enable: 'boolean',
  created_at: 'datetime',
} as const satisfies ListFields;

export const siteTokenListFields = {
  id: 'number',
  site_id: 'number',
  account_id: 'number',
  auth_type: 'enum',
  created_at: 'datetime',
  expire_at: 'datetime',
} as const satisfies ListFields;
