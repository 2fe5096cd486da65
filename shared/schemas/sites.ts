import { z } from 'zod';
import { AuthType, type SiteAccountStatus } from '../enums.js';
import { field, keyOrderFields, type RowOf } from '../listFields.js';
import type { ListFields } from '../listQuery.js';
import { Bounds, httpUrl, requiredText } from './common.js';
import { ValidatorMessages } from '../validators.js';

// Sites and the login accounts the bot uses on them (spec sections 3, 5, 7).

export const SiteMessages = {
  name: 'Please enter site name',
  url: 'Please enter site url',
  urlInvalid: 'Please give the full address including http(s)://',
  user: 'Please enter this account',
  pwd: 'Please enter this password',
  enable: 'enable must be true or false',
  control: 'control must be true or false',
} as const;

export const NewAccount = z.object({
  user: requiredText(SiteMessages.user).max(Bounds.name, ValidatorMessages.maxLength(Bounds.name)),
  pwd: requiredText(SiteMessages.pwd).max(Bounds.secret, ValidatorMessages.maxLength(Bounds.secret)),
});
export type NewAccount = z.infer<typeof NewAccount>;

export const NewSiteBody = z.object({
  name: requiredText(SiteMessages.name).max(100, 'max length is 100'),
  url: httpUrl(SiteMessages.url, SiteMessages.urlInvalid),
  accounts: z.array(NewAccount).max(200).default([]),
  /**
   * A control site (issue 45): known to be healthy, so its checks failing mean Patrol's own browser
   * or network is at fault; the other failures of those minutes go under one "Checker unhealthy".
   */
  control: z.boolean({ error: SiteMessages.control }).default(false),
});
export type NewSiteBody = z.infer<typeof NewSiteBody>;

/** PUT /sites/{id}: exactly one of name, url, enable, control, or delete = 1. */
export const UpdateSiteBody = z.union(
  [
    z.object({ name: requiredText(SiteMessages.name).max(100, 'max length is 100') }).strict(),
    z.object({ url: httpUrl(SiteMessages.url, SiteMessages.urlInvalid) }).strict(),
    z.object({ enable: z.boolean({ error: SiteMessages.enable }) }).strict(),
    z.object({ control: z.boolean({ error: SiteMessages.control }) }).strict(),
    z.object({ delete: z.literal(1, { error: 'delete must be 1' }) }).strict(),
  ],
  { error: 'Give one of name, url, enable, control or delete' },
);
export type UpdateSiteBody = z.infer<typeof UpdateSiteBody>;

export const AddAccountsBody = z.object({ accounts: z.array(NewAccount).max(200) });
export type AddAccountsBody = z.infer<typeof AddAccountsBody>;

/** PUT /sites/accounts/{id}: exactly one of user, pwd, enable. */
export const UpdateAccountBody = z.union(
  [
    z.object({ user: NewAccount.shape.user }).strict(),
    z.object({ pwd: NewAccount.shape.pwd }).strict(),
    z.object({ enable: z.boolean({ error: SiteMessages.enable }) }).strict(),
  ],
  { error: 'Give one of user, pwd or enable' },
);
export type UpdateAccountBody = z.infer<typeof UpdateAccountBody>;

// One declaration per list: the row types below derive from it (see shared/listFields.ts).
export const siteListFields = {
  ...keyOrderFields,
  name: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  url: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  /** Enabled accounts of the site. */
  available_account_cnt: field.number({ sort: 'bounded', filter: 'bounded' }),
  enable: field.boolean({ sort: 'bounded', filter: 'key' }),
  /** A control site (NewSiteBody.control); rows stored before issue 45 read false. */
  control: field.boolean({ filter: 'bounded' }),
} as const satisfies ListFields;

export const siteAccountListFields = {
  ...keyOrderFields,
  site_id: field.number({ sort: 'bounded', filter: 'key' }),
  user: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  enable: field.boolean({ sort: 'bounded', filter: 'key' }),
} as const satisfies ListFields;

export const siteTokenListFields = {
  ...keyOrderFields,
  site_id: field.number({ sort: 'bounded', filter: 'key' }),
  account_id: field.number({ sort: 'bounded', filter: 'key' }),
  auth_type: field.enum(AuthType, { sort: 'bounded', filter: 'bounded' }),
  /** When the session stops being valid, ms; null when unknown. */
  expire_at: field.datetime<number | null>({ sort: 'bounded', filter: 'bounded' }),
} as const satisfies ListFields;

export interface Site extends RowOf<typeof siteListFields> {
  updated_at?: number;
  /** The site's accounts (spec section 3), without passwords: those are read one site at a time. */
  accounts: Omit<SiteAccount, 'site'>[];
}

/** No password: replies, lists and exports never carry one; GET /sites/accounts/{id}/pwd reveals one. */
export interface SiteAccount extends RowOf<typeof siteAccountListFields> {
  status: (typeof SiteAccountStatus.values)[keyof typeof SiteAccountStatus.values];
  site: { name: string } | null;
}

/** GET /sites/accounts/{id}/pwd: one account's password, rate limited and audited. */
export interface RevealedPassword {
  id: number;
  pwd: string;
}

/** A session a login check captured for an account (GET /sites/accounts/tokens). */
export interface SiteAccountToken extends RowOf<typeof siteTokenListFields> {
  account: { user: string } | null;
  site: { name: string } | null;
}
