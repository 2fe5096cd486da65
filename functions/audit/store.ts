import { type AuditEntry, auditListFields } from '../../shared/schemas/audit.js';
import { defineEntity } from '../lib/db/entity.js';
import { createRepository } from '../lib/db/repository.js';
// Audit rows expire after the system config's retention days for events (the `retention` below).
import '../systemConfig/getSystemConfig.js';

export const auditEntity = defineEntity<AuditEntry>({
  type: 'audit',
  fields: auditListFields,
  // reason: a filter on refused logins reads only them, however many other rows there are.
  keys: ['actor_id', 'reason'],
  // Append-only: the repository's update/delete are never called for it (no route, no job).
  retention: 'events',
});

export const auditEntries = createRepository(auditEntity);
