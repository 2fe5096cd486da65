import { type EnumValue, LoginFailure } from '../enums.js';
import { field, keyOrderFields } from '../listFields.js';
import type { ListFields } from '../listQuery.js';

// The audit trail: who did what to which record, from where, and how it ended. It never holds a
// secret's value (a reveal records that a password was shown, not the password; request and reply
// are stored with every secret-named key dropped).

export const AuditOutcome = { Allowed: 'allowed', Refused: 'refused' } as const;
export type AuditOutcome = (typeof AuditOutcome)[keyof typeof AuditOutcome];

export interface AuditEntry {
  id: number;
  /** 0 when nobody is signed in (a failed login: `actor_name` is the username that was tried). */
  actor_id: number;
  actor_name: string;
  /** What was done, e.g. 'site_account.pwd.reveal' or 'PUT /sites/:id'. */
  action: string;
  /** The record acted on, e.g. 'site_account#12'; the route's path when it names none. */
  target: string;
  /** The kind of record, e.g. 'site_account'. */
  target_type: string;
  /** The record's id, when the call names one. */
  target_id?: number;
  /** What the caller asked (the request body as JSON), secrets dropped. */
  input?: string;
  /** What it became (the reply's data as JSON), secrets dropped; absent on refusals. */
  after?: string;
  client_ip: string;
  request_id?: string;
  /** The HTTP status the call ended with. */
  status?: number;
  outcome: AuditOutcome;
  /**
   * Why a login was refused (a wrong password, an unknown username, the captcha, throttling, a
   * disabled account): what a super user filters on to see an attack. The username tried is
   * `actor_name`, the address `client_ip`; the password is never kept.
   */
  reason?: EnumValue<typeof LoginFailure>;
  /** When it happened, ms. */
  at: number;
  created_at: number;
}

export const auditListFields = {
  ...keyOrderFields,
  actor_id: field.number({ sort: 'bounded', filter: 'key' }),
  actor_name: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  action: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  target: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
  target_type: field.text({ sort: 'bounded', filter: 'bounded' }),
  target_id: field.number({ filter: 'bounded' }),
  input: field.shown<string>(),
  after: field.shown<string>(),
  client_ip: field.text({ filter: 'bounded', search: true }),
  request_id: field.text({ filter: 'bounded' }),
  status: field.number({ sort: 'bounded', filter: 'bounded' }),
  outcome: field.text({ sort: 'bounded', filter: 'bounded' }),
  reason: field.enum(LoginFailure, { sort: 'bounded', filter: 'key' }),
} as const satisfies ListFields;
