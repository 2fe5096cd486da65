// The one table's key schema and indexes: used by the local runner to create the table and
// by the CDK data construct, so local and cloud cannot drift apart.

export const TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk' } as const;

/**
 * byType holds every live row of a type; the slot indexes hold, sparsely, the rows of a type with one
 * value of a key-served field (`${type}:${field}=${value}`). An entity maps its key fields to slots
 * in order (EntityDef.keys), so one field never needs more than one index and 6 slots serve any entity.
 */
export const TABLE_INDEXES = [
  { name: 'byType', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  { name: 'byParent', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  { name: 'byParent2', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  { name: 'byKey3', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
  { name: 'byKey4', partitionKey: 'gsi5pk', sortKey: 'gsi5sk' },
  { name: 'byKey5', partitionKey: 'gsi6pk', sortKey: 'gsi6sk' },
  { name: 'byKey6', partitionKey: 'gsi7pk', sortKey: 'gsi7sk' },
] as const;

export type IndexName = (typeof TABLE_INDEXES)[number]['name'];

/** The slot indexes in the order entities map their key fields to them. */
export const SLOT_INDEXES = TABLE_INDEXES.filter((i) => i.name !== 'byType').map((i) => i.name);

/**
 * Rows with follow-ups still to apply (outbox.ts), sparse: a transition that records follow-ups sets
 * `_ob_pk` and `_ob_sk` (when its oldest pending entry was written) in the same write, and the write
 * that clears the last entry removes them. The sweeper reads only keys here, then the row itself.
 */
export const OUTBOX_INDEX = { name: 'byOutbox', partitionKey: '_ob_pk', sortKey: '_ob_sk' } as const;

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
  for (const i of [...TABLE_INDEXES, OUTBOX_INDEX]) {
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
    GlobalSecondaryIndexes: [
      ...TABLE_INDEXES.map((i) => ({
        IndexName: i.name,
        KeySchema: [
          { AttributeName: i.partitionKey, KeyType: 'HASH' as const },
          { AttributeName: i.sortKey, KeyType: 'RANGE' as const },
        ],
        Projection: { ProjectionType: 'ALL' as 'ALL' | 'KEYS_ONLY' },
      })),
      {
        IndexName: OUTBOX_INDEX.name,
        KeySchema: [
          { AttributeName: OUTBOX_INDEX.partitionKey, KeyType: 'HASH' as const },
          { AttributeName: OUTBOX_INDEX.sortKey, KeyType: 'RANGE' as const },
        ],
        // The sweeper reads the row itself (consistently); the index only says which rows to read.
        Projection: { ProjectionType: 'KEYS_ONLY' as 'ALL' | 'KEYS_ONLY' },
      },
    ],
  };
}
