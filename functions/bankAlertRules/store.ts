import type { StoredOf } from '../../shared/listFields.js';
import type { ListQuery } from '../../shared/listQuery.js';
import { alertRuleListFields } from '../../shared/schemas/bankAlertRules.js';
import { onConditionFailure } from '../lib/db/conditionFailure.js';
import { defineEntity, type ListOutcome } from '../lib/db/entity.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { AlertRuleNotFoundError } from './errors.js';

/** A rule as stored: the row plus who last saved it (null is SYSTEM). */
export type StoredAlertRule = StoredOf<typeof alertRuleListFields, { editor_id: number | null }>;
export type NewAlertRule = Omit<StoredAlertRule, 'id' | 'created_at' | 'updated_at'>;

/** Where alert rules live; the service and the poll's cached read depend on this port. */
export interface AlertRuleStore {
  create(rule: NewAlertRule): Promise<StoredAlertRule>;
  get(id: number): Promise<StoredAlertRule | undefined>;
  list(query: ListQuery): Promise<ListOutcome<StoredAlertRule>>;
  /** Every enabled rule: few (tens), read whole by the poll's cache (one Query on the `enabled` slot). */
  enabled(): Promise<StoredAlertRule[]>;
  /** Throws AlertRuleNotFoundError. */
  update(id: number, patch: Partial<NewAlertRule>): Promise<StoredAlertRule>;
  /** Throws AlertRuleNotFoundError. */
  remove(id: number): Promise<StoredAlertRule>;
}

export const alertRuleEntity = defineEntity<StoredAlertRule>({
  type: 'bank_alert_rule',
  fields: alertRuleListFields,
  keys: ['enabled'],
});

export function dynamoAlertRuleStore(
  repo: DynamoRepository<StoredAlertRule> = createRepository(alertRuleEntity),
): AlertRuleStore {
  return {
    create: (rule) => repo.create(rule),
    get: (id) => repo.get(id),
    list: (query) => repo.list(query),
    enabled: () => repo.all({ scope: { enabled: true } }),
    update: (id, patch) => onConditionFailure(repo.update(id, patch), () => new AlertRuleNotFoundError(id)),
    async remove(id) {
      const rule = await repo.get(id);
      if (!rule) throw new AlertRuleNotFoundError(id);
      await repo.remove(id);
      return rule;
    },
  };
}

let store: AlertRuleStore | undefined;
export function alertRuleStore(): AlertRuleStore {
  store ??= dynamoAlertRuleStore();
  return store;
}
