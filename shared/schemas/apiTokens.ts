import { z } from 'zod';
import { defineEnum, type EnumValue } from '../enums.js';
import { field, keyOrderFields, type RowOf } from '../listFields.js';
import type { ListFields } from '../listQuery.js';
import type { UserRef } from './common.js';

// API tokens (issue 46 item 2): a credential for scripts and scrapers, made by a super user, sent
// as `Authorization: Bearer pat_…` through the same pipeline as a session. Its scope bounds it
// below its creator's role (functions/apiTokens/scope.ts): `read` every GET a viewer may make,
// `operate` what an operator may do but never a reveal, `metrics` only GET /metrics.

export const ApiTokenScope = defineEnum({
  Read: ['read', 'Read-only'],
  Operate: ['operate', 'Operate'],
  Metrics: ['metrics', 'Metrics'],
});
export type ApiTokenScopeValue = EnumValue<typeof ApiTokenScope>;

/** Every token starts so: scanners (GitHub's, gitleaks) and people tell it from a session's JWT. */
export const API_TOKEN_PREFIX = 'pat_';
/** How much of a token the list shows: `pat_` and the first characters of its random part. */
export const API_TOKEN_SHOWN_CHARS = 12;
/** A token lives at most this long from when it is made. */
export const API_TOKEN_MAX_LIFETIME_MS = 365 * 24 * 3_600_000;
export const API_TOKEN_NAME_MAX = 40;

export const ApiTokenMessages = {
  name: 'Please enter the token name',
  nameTooLong: `The name is at most ${API_TOKEN_NAME_MAX} characters`,
  scope: 'Scope must be read, operate or metrics',
  expiresAt: 'Please choose when the token expires',
  expiresPast: 'The expiry must be in the future',
  expiresTooFar: 'A token expires at most a year ahead',
} as const;

export const apiTokenListFields = {
  ...keyOrderFields,
  name: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  scope: field.enum(ApiTokenScope, { sort: 'bounded', filter: 'bounded' }),
  /** The token's first API_TOKEN_SHOWN_CHARS characters, enough to recognise it, never to use it. */
  prefix: field.text(),
  /** When it stops working (ms): the body's `expires_at` (a row's `expires_at` is storage's TTL). */
  expiry: field.datetime({ sort: 'bounded', filter: 'bounded' }),
  /** Updated at most once a minute per token (functions/apiTokens/service.ts). */
  last_used_at: field.shown<number | null>(),
  revoked_at: field.shown<number | null>(),
} as const satisfies ListFields;

export const apiTokenReplyFields = {
  creator: field.shown<UserRef>(),
} as const;
export type ApiToken = RowOf<typeof apiTokenListFields & typeof apiTokenReplyFields>;

/** POST /super/tokens's answer: the row and, this once, the token itself. */
export type NewApiToken = ApiToken & { token: string };

/** POST /super/tokens. `expires_at` is epoch ms; its range is checked against the server's clock. */
export const NewApiTokenBody = z.object({
  name: z
    .string({ error: ApiTokenMessages.name })
    .trim()
    .min(1, ApiTokenMessages.name)
    .max(API_TOKEN_NAME_MAX, ApiTokenMessages.nameTooLong),
  scope: z.enum(Object.values(ApiTokenScope.values) as [ApiTokenScopeValue, ...ApiTokenScopeValue[]], {
    error: ApiTokenMessages.scope,
  }),
  expires_at: z
    .number({ error: ApiTokenMessages.expiresAt })
    .int(ApiTokenMessages.expiresAt)
    .positive(ApiTokenMessages.expiresAt),
});
export type NewApiTokenBody = z.infer<typeof NewApiTokenBody>;
