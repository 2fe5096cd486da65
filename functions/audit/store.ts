import { type AuditEntry, auditListFields } from '../../shared/schemas/audit.js';
import { defineEntity } from '../lib/db/entity.js';
import { createRepository } from '../lib/db/repository.js';

export const auditEntity = defineEntity<AuditEntry>({
  type: 'audit',
  fields: auditListFields,
  keys: ['actor_id'],
});

export const auditEntries = createRepository(auditEntity);
