import { randomUUID } from 'node:crypto';
import type { ListQuery } from '../../shared/listQuery.js';
import type { Checkpoints } from '../../shared/schemas/checks.js';
import { type AutoLog, autoLogListFields, type RuleTimes, ruleListFields } from '../../shared/schemas/autoCheck.js';
import { ConditionFailedError, defineEntity, type FollowUp, type ListOutcome } from '../lib/db/entity.js';
import { nextId } from '../lib/db/ids.js';
import { leaseKind, LeaseStatus } from '../lib/db/lease.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { onConditionFailure } from '../lib/db/conditionFailure.js';
import { RuleNotFoundError } from './errors.js';

/** A rule as stored: the creator as an id (null is SYSTEM), resolved to a nickname when read. */
export interface StoredRule {
  id: number;
  name: string;
  sites: number[];
  checkpoints: Checkpoints;
  times: RuleTimes;
  enable: boolean;
  creator_id: number | null;
  created_at: number;
  updated_at?: number;
  /** Since when the rule's current times and enable hold: slots before it were never due. */
  schedule_since: number;
}

export type StoredAutoLog = Omit<AutoLog, 'rule'>;

export type NewRule = Omit<StoredRule, 'id' | 'created_at' | 'updated_at'>;

/** One firing of one slot, named by rule, week (its Monday's date in the zone) and week stamp. */
export interface SlotKey {
  ruleId: number;
  week: string;
  weekStamp: number;
}

/**
 * Where rules, their run logs and the slot claims live. Soft-deleted rules are gone for every
 * read but `getRule(id, { includeDeleted })`, which the log list uses for names.
 */
export interface RuleStore {
  createRule(rule: NewRule): Promise<StoredRule>;
  getRule(id: number): Promise<StoredRule | undefined>;
  getRules(ids: number[], options?: { includeDeleted?: boolean }): Promise<StoredRule[]>;
  listRules(query: ListQuery): Promise<ListOutcome<StoredRule>>;
  /** Every live rule, in creation order. */
  allRules(): Promise<StoredRule[]>;
  /** Throws RuleNotFoundError. */
  updateRule(id: number, patch: Partial<Omit<StoredRule, 'id' | 'created_at'>>): Promise<StoredRule>;
  /** Throws RuleNotFoundError. */
  deleteRule(id: number): Promise<void>;

  /**
   * A run log row. Under `id` (newLogId, chosen before) it is written once however often this runs
   * (a follow-up applied again); `followUps` are stored with it and applied once it is written.
   */
  addLog(
    log: Omit<StoredAutoLog, 'id' | 'created_at'>,
    options?: { id?: number; followUps?: FollowUp[] },
  ): Promise<StoredAutoLog>;
  newLogId(): Promise<number>;
  listLogs(query: ListQuery, ruleId?: number): Promise<ListOutcome<StoredAutoLog>>;

  /**
   * Takes the one claim of a slot firing: its holder's token for the first caller, undefined for
   * every later one (a second delivery, a retry after success, the local catch-up after the
   * cloud-like timer). A runner that dies holding it leaves it to a delivery after `ms`.
   */
  claimSlot(key: SlotKey, now: number, ms: number): Promise<string | undefined>;
  /** The run left its trace (a log row): the claim is kept, no delivery runs the slot again. */
  completeSlot(key: SlotKey, holder: string): Promise<void>;
  /** Gives a claim back when the run failed before it left a trace, so a retry may run it. */
  releaseSlot(key: SlotKey, holder: string): Promise<void>;
  /** Whether a slot firing was claimed (ran, was logged missed, or is running). */
  slotClaimed(key: SlotKey): Promise<boolean>;
}

export const ruleEntity = defineEntity<StoredRule>({
  type: 'auto_rule',
  fields: ruleListFields,
  keys: ['enable'],
  softDelete: true,
});

export const autoLogEntity = defineEntity<StoredAutoLog>({
  type: 'auto_log',
  fields: autoLogListFields,
  keys: ['rule_id'],
  retention: 'log_rows',
});

/** Claims outlive the catch-up window (a week) with room; the cloud's TTL removes them after. */
const CLAIM_TTL_S = 30 * 86_400;
/** The slot claims, on the one lease protocol (lib/db/lease.ts); the key of the claims written before it. */
const slotClaims = leaseKind<Record<string, never>>('autoslot', {
  reusable: false,
  sk: 'slot',
  ttlSeconds: CLAIM_TTL_S,
});
const claimId = (k: SlotKey) => `${k.ruleId}#${k.week}#${k.weekStamp}`;

export function dynamoRuleStore(
  rules: DynamoRepository<StoredRule> = createRepository(ruleEntity),
  logs: DynamoRepository<StoredAutoLog> = createRepository(autoLogEntity),
): RuleStore {
  const onRule = <R>(id: number, write: Promise<R>) => onConditionFailure(write, () => new RuleNotFoundError(id));
  return {
    createRule: (rule) => rules.create(rule),
    getRule: (id) => rules.get(id),
    getRules: (ids, options) => rules.getMany([...new Set(ids)], options),
    listRules: (query) => rules.list(query),
    allRules: () => rules.all(),
    updateRule: (id, patch) => onRule(id, rules.update(id, patch)),
    deleteRule: (id) => onRule(id, rules.softDelete(id)),

    async addLog(log, options = {}) {
      try {
        return await logs.create(log, options);
      } catch (error) {
        if (options.id === undefined || !(error instanceof ConditionFailedError)) throw error;
        const found = await logs.get(options.id);
        if (!found) throw error;
        return found;
      }
    },
    newLogId: () => nextId(autoLogEntity.type),
    listLogs: (query, ruleId) => logs.list(query, ruleId === undefined ? undefined : { scope: { rule_id: ruleId } }),

    async claimSlot(key, now, ms) {
      const holder = randomUUID();
      const out = await slotClaims.take(claimId(key), { holder, now, ms });
      return out.taken ? holder : undefined;
    },
    async completeSlot(key, holder) {
      await slotClaims.complete(claimId(key), holder);
    },
    async releaseSlot(key, holder) {
      await slotClaims.abandon(claimId(key), holder);
    },
    async slotClaimed(key) {
      const record = await slotClaims.read(claimId(key));
      return record?.status === LeaseStatus.InProgress || record?.status === LeaseStatus.Completed;
    },
  };
}

let store: RuleStore | undefined;
/** The process-wide store. */
export function ruleStore(): RuleStore {
  store ??= dynamoRuleStore();
  return store;
}
