import { type Site, siteAccountListFields, siteListFields, siteTokenListFields } from '../../shared/schemas/sites.js';
import { defineEntity } from '../lib/db/entity.js';
import { createRepository } from '../lib/db/repository.js';

/** A site account as stored: the password only as ciphertext. */
export interface StoredSiteAccount {
  id: number;
  site_id: number;
  user: string;
  pwd_enc: string;
  enable: boolean;
  created_at: number;
}

/** A captured login session of an account; the token only as ciphertext. */
export interface StoredSiteToken {
  id: number;
  site_id: number;
  account_id: number;
  auth_type: 1 | 2;
  token_enc: string;
  created_at: number;
  expire_at: number | null;
}

export const siteEntity = defineEntity<Site>({
  type: 'site',
  fields: siteListFields,
  keys: ['enable'],
  softDelete: true,
});

export const siteAccountEntity = defineEntity<StoredSiteAccount>({
  type: 'site_account',
  fields: siteAccountListFields,
  keys: ['site_id', 'enable'],
  softDelete: true,
});

export const siteTokenEntity = defineEntity<StoredSiteToken>({
  type: 'site_token',
  fields: siteTokenListFields,
  keys: ['account_id', 'site_id'],
});

export const sites = createRepository(siteEntity);
export const siteAccounts = createRepository(siteAccountEntity);
export const siteTokens = createRepository(siteTokenEntity);
