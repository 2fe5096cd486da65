// The one table's key schema and indexes: used by the local runner to create the table and
// by the CDK data construct, so local and cloud cannot drift apart.

export const TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk' } as const;

/**
 * What an index copies from a row (docs/data-model.md "What each index carries"). Every update of a
 * row rewrites its copy in each index it sits in when the change touches a projected attribute, at
 * the copy's size: ALL copies the stored follow-ups and every internal field too. INCLUDE copies the
 * table and index keys plus `attributes`; KEYS_ONLY the keys alone. DynamoDB allows at most 20
 * attributes an INCLUDE and 100 summed over the table's indexes (tests/infra/indexes.test.ts).
 * ALL must say why: a shared index whose tenants' lists show more than an INCLUDE may carry.
 */
export type IndexProjection =
  | { type: 'ALL'; why: string }
  | { type: 'KEYS_ONLY'; why: string }
  | { type: 'INCLUDE'; attributes: readonly string[] };

/** Why the shared slots stay whole: their tenants' lists show and filter on 80 to 145 names. */
const SHARED_LISTS =
  'the first four slots hold a key of nearly every entity: their lists show and filter on 80 to 145 attribute names, ' +
  'over the 20 an INCLUDE carries; a page read from the table instead (BatchGetItem) would cost 10 RCU a page';

/**
 * The subtask's list attributes (shared/schemas/checks.ts subtaskListFields, its search shadow,
 * updated_at): all the status slot's only tenant shows and filters on, never its follow-ups, run id
 * or rollup mark, so the claim's and the end's copies are ~0.3 KB and a follow-up's clear writes none.
 */
const SUBTASK_LIST_ATTRIBUTES = [
  'id',
  'created_at',
  'updated_at',
  'task_id',
  'operation_id',
  'mode',
  'process',
  'status',
  'site_id',
  'msg',
  '_lc_msg',
  'start_at',
  'end_at',
  'attempts',
  'flaky',
  'degraded',
  'duration_ms',
] as const;

/**
 * byType holds every live row of a type; the slot indexes hold, sparsely, the rows of a type with one
 * value of a key-served field (`${type}:${field}=${value}`). An entity maps its key fields to slots
 * in order (EntityDef.keys), so one field never needs more than one index and 6 slots serve any entity.
 * A slot's projection must carry every attribute its tenants' lists filter, sort or search on (the list
 * engine refuses one it does not, tests/infra/indexes.test.ts walks every entity); a list whose shown
 * fields it does not all carry reads its page's rows from the table (listEngine.ts fetchRows).
 */
export const TABLE_INDEXES = [
  {
    name: 'byType',
    partitionKey: 'gsi1pk',
    sortKey: 'gsi1sk',
    projection: {
      type: 'ALL',
      why:
        "every entity's unfiltered and bounded lists read it: ~150 attribute names, over the 20 an INCLUDE " +
        'carries; a page read from the table instead (BatchGetItem) would cost 10 RCU a page',
    },
  },
  { name: 'byParent', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: { type: 'ALL', why: SHARED_LISTS } },
  { name: 'byParent2', partitionKey: 'gsi3pk', sortKey: 'gsi3sk', projection: { type: 'ALL', why: SHARED_LISTS } },
  { name: 'byKey3', partitionKey: 'gsi4pk', sortKey: 'gsi4sk', projection: { type: 'ALL', why: SHARED_LISTS } },
  { name: 'byKey4', partitionKey: 'gsi5pk', sortKey: 'gsi5sk', projection: { type: 'ALL', why: SHARED_LISTS } },
  {
    name: 'byKey5',
    partitionKey: 'gsi6pk',
    sortKey: 'gsi6sk',
    projection: {
      type: 'ALL',
      why:
        "the subtask's site slot (the dashboard's cells) and the bank notification's webhook status (Replay Failed) " +
        'share it: their lists show 32 attribute names, over the 20 an INCLUDE carries',
    },
  },
  // Only the subtask has a sixth key (its status, the slot every transition moves the row between).
  // Named anew for its projection: CloudFormation changes no index's projection in place (RETIRED_INDEXES).
  {
    name: 'byKey6Include',
    partitionKey: 'gsi7pk',
    sortKey: 'gsi7sk',
    projection: { type: 'INCLUDE', attributes: SUBTASK_LIST_ATTRIBUTES },
  },
] as const satisfies readonly { name: string; partitionKey: string; sortKey: string; projection: IndexProjection }[];

export type IndexName = (typeof TABLE_INDEXES)[number]['name'];

/**
 * Indexes the code no longer reads, kept by a stage that had them until a later deploy deletes them
 * (stage setting `keptIndexes`, docs/deploy.md "Changing an index"): CloudFormation neither changes
 * an index's projection in place nor creates and deletes more than one index per update, so a
 * projection changes as a new index beside the old one, then the old one's removal.
 */
export const RETIRED_INDEXES = [
  {
    name: 'byKey6',
    partitionKey: 'gsi7pk',
    sortKey: 'gsi7sk',
    projection: { type: 'ALL', why: 'the sixth slot before byKey6Include (2026-12): a copy of every attribute' },
  },
] as const satisfies readonly { name: string; partitionKey: string; sortKey: string; projection: IndexProjection }[];

/** The slot indexes in the order entities map their key fields to them. */
export const SLOT_INDEXES = TABLE_INDEXES.filter((i) => i.name !== 'byType').map((i) => i.name);

/**
 * Rows with follow-ups still to apply (outbox.ts), sparse: a transition that records follow-ups sets
 * `_ob_pk` and `_ob_sk` (when its oldest pending entry was written) in the same write, and the write
 * that clears the last entry removes them. The sweeper reads only keys here, then the row itself.
 */
export const OUTBOX_INDEX = {
  name: 'byOutbox',
  partitionKey: '_ob_pk',
  sortKey: '_ob_sk',
  projection: {
    type: 'KEYS_ONLY',
    why: 'the sweeper reads the row itself (consistently): the index only says which rows',
  },
} as const satisfies { name: string; partitionKey: string; sortKey: string; projection: IndexProjection };

/** Every index of the table, the outbox's last: what the local engines and the CDK table create. */
export const ALL_INDEXES = [...TABLE_INDEXES, OUTBOX_INDEX] as const;

/** The attributes of an index's copy beyond the table's and its own keys; undefined for ALL (every one). */
export function projectedAttributes(projection: IndexProjection): readonly string[] | undefined {
  return projection.type === 'ALL' ? undefined : projection.type === 'INCLUDE' ? projection.attributes : [];
}

/** Whether an index's copy of a row carries `attr`. */
export function carries(index: { partitionKey: string; sortKey: string; projection: IndexProjection }, attr: string) {
  const attrs = projectedAttributes(index.projection);
  return (
    attrs === undefined ||
    attrs.includes(attr) ||
    [TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey, index.partitionKey, index.sortKey].includes(attr)
  );
}

/** The Projection of CreateTable / UpdateTable for an index declaration. */
export function projectionInput(projection: IndexProjection) {
  return projection.type === 'INCLUDE'
    ? { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...projection.attributes] }
    : { ProjectionType: projection.type };
}

/**
 * Every attribute of the outbox mechanism starts so: its index keys, its pending entries
 * (`_ob_e_<token>`), their version (`_ob_v`) and the causes a guarded counter has counted
 * (`_ob_causes`). Storage attributes: never returned, never written through the repository's fields.
 */
export const OUTBOX_PREFIX = '_ob_';

/** Epoch-seconds attribute after which DynamoDB removes a row (log rows). */
export const TTL_ATTRIBUTE = 'expires_at';

/** CreateTable input (on-demand), for local engines and tests. */
export function createTableInput(tableName: string) {
  const attrs = new Set<string>([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey]);
  for (const i of ALL_INDEXES) {
    attrs.add(i.partitionKey);
    attrs.add(i.sortKey);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [...attrs].map((AttributeName) => ({ AttributeName, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: ALL_INDEXES.map((i) => ({
      IndexName: i.name,
      KeySchema: [
        { AttributeName: i.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: i.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: projectionInput(i.projection),
    })),
  };
}
