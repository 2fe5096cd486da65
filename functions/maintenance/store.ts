import type { ListQuery } from '../../shared/listQuery.js';
import type { StoredOf } from '../../shared/listFields.js';
import { maintenanceListFields } from '../../shared/schemas/maintenance.js';
import { defineEntity, type ListOutcome } from '../lib/db/entity.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { onConditionFailure } from '../lib/db/conditionFailure.js';
import { MaintenanceNotFoundError } from './errors.js';

/** A window as stored: the row plus who made it (null is SYSTEM), named when read. */
export type StoredWindow = StoredOf<typeof maintenanceListFields, { creator_id: number | null }>;
export type NewWindow = Omit<StoredWindow, 'id' | 'created_at' | 'updated_at'>;

/** Where maintenance windows live; the service depends on this port. */
export interface MaintenanceStore {
  create(w: NewWindow): Promise<StoredWindow>;
  get(id: number): Promise<StoredWindow | undefined>;
  list(query: ListQuery): Promise<ListOutcome<StoredWindow>>;
  /** Every enabled window: few (tens), read whole by the checks that consult them. */
  enabled(): Promise<StoredWindow[]>;
  /** Throws MaintenanceNotFoundError. */
  update(id: number, patch: Partial<NewWindow>): Promise<StoredWindow>;
  /** Throws MaintenanceNotFoundError. */
  remove(id: number): Promise<void>;
}

export const maintenanceEntity = defineEntity<StoredWindow>({
  type: 'maintenance',
  fields: maintenanceListFields,
  keys: ['enabled'],
});

export function dynamoMaintenanceStore(
  repo: DynamoRepository<StoredWindow> = createRepository(maintenanceEntity),
): MaintenanceStore {
  const onWindow = <R>(id: number, write: Promise<R>) =>
    onConditionFailure(write, () => new MaintenanceNotFoundError(id));
  return {
    create: (w) => repo.create(w),
    get: (id) => repo.get(id),
    list: (query) => repo.list(query),
    enabled: () => repo.all({ scope: { enabled: true } }),
    update: (id, patch) => onWindow(id, repo.update(id, patch)),
    async remove(id) {
      if (!(await repo.get(id))) throw new MaintenanceNotFoundError(id);
      await repo.remove(id);
    },
  };
}

let store: MaintenanceStore | undefined;
export function maintenanceStore(): MaintenanceStore {
  store ??= dynamoMaintenanceStore();
  return store;
}
