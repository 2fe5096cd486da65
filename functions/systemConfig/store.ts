import type { ListQuery } from '../../shared/listQuery.js';
import {
  type SystemConfig,
  type SystemConfigVersion,
  systemConfigVersionFields,
} from '../../shared/schemas/systemConfig.js';
import { ConditionFailedError, defineEntity, type ListOutcome } from '../lib/db/entity.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { ConfigChangedError } from './errors.js';

/** The document in force and the version it came from. */
export interface StoredConfigHead {
  version: number;
  document: SystemConfig;
  updated_by: { id: number; nickname: string };
  updated_at: number;
}

export type NewConfigVersion = Omit<SystemConfigVersion, 'id' | 'created_at'>;

/** Where the system config lives; the service and the accessor depend on this port, not on DynamoDB. */
export interface SystemConfigStore {
  /** Undefined until the first save (the defaults are in force). */
  head(): Promise<StoredConfigHead | undefined>;
  /**
   * Makes `version.document` the one in force as version `after + 1` and keeps it in the history.
   * Throws ConfigChangedError, changing nothing, when the version in force is no longer `after`.
   */
  save(version: NewConfigVersion, after: number): Promise<SystemConfigVersion>;
  version(id: number): Promise<SystemConfigVersion | undefined>;
  listVersions(query: ListQuery): Promise<ListOutcome<SystemConfigVersion>>;
}

interface HeadRow extends StoredConfigHead {
  id: number;
  created_at: number;
}

// One head row (id 1) read with one consistent GetItem by every handler's accessor, and one
// history row per version, keyed by its number.
const HEAD_ID = 1;
const headEntity = defineEntity<HeadRow>({ type: 'systemConfig', fields: { id: 'number' } });
const versionEntity = defineEntity<SystemConfigVersion>({
  type: 'systemConfigVersion',
  fields: systemConfigVersionFields,
});

export function dynamoSystemConfigStore(
  heads: DynamoRepository<HeadRow> = createRepository(headEntity),
  versions: DynamoRepository<SystemConfigVersion> = createRepository(versionEntity),
): SystemConfigStore {
  return {
    async head() {
      const row = await heads.get(HEAD_ID);
      if (!row) return undefined;
      const { version, document, updated_by, updated_at } = row;
      return { version, document, updated_by, updated_at };
    },

    async save(version, after) {
      const next = after + 1;
      const now = Date.now();
      const head = { version: next, document: version.document, updated_by: version.by, updated_at: now };
      // The head decides a race (one conditional write); the history row follows. A crash between
      // the two loses one history entry, never the document in force.
      try {
        if (after === 0) await heads.create({ ...head, created_at: now }, { id: HEAD_ID });
        else await heads.update(HEAD_ID, head, { expect: { version: after } });
      } catch (error) {
        if (error instanceof ConditionFailedError) throw new ConfigChangedError({ cause: error });
        throw error;
      }
      const row = { ...version, created_at: now };
      if (row.restored_from === undefined) delete row.restored_from;
      return versions.create(row, { id: next });
    },

    version: (id) => versions.get(id),
    listVersions: (query) => versions.list(query),
  };
}

let store: SystemConfigStore | undefined;
/** The process-wide store. */
export function systemConfigStore(): SystemConfigStore {
  store ??= dynamoSystemConfigStore();
  return store;
}
