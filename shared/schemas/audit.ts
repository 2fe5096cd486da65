import { field, keyOrderFields } from '../listFields.js';
import type { ListFields } from '../listQuery.js';

// The audit trail: who did what to which record, from where, and how it ended. It never holds a
// secret's value (a reveal records that a password was shown, not the password).

export const AuditOutcome = { Allowed: 'allowed', Refused: 'refused' } as const;
export type AuditOutcome = (typeof AuditOutcome)[keyof typeof AuditOutcome];

export interface AuditEntry {
  id: number;
  actor_id: number;
  actor_name: string;
  /** What was done, e.g. 'site_account.pwd.reveal'. */
  action: string;
  /** The record acted on, e.g. 'site_account#12'. */
  target: string;
  client_ip: string;
  outcome: AuditOutcome;
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
  outcome: field.text({ sort: 'bounded', filter: 'bounded' }),
} as const satisfies ListFields;
