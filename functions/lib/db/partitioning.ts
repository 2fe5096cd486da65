// The declaration an entity makes of its partition layout (EntityDef.partitioning); the layout
// itself is partitions.ts. Apart from it so the entity module can name it without importing the
// code that reads entities.

export type BucketUnit = 'day' | 'hour';

export interface Partitioning {
  /** Time bucket of created_at (UTC). A partition then holds one bucket's rows of its base. */
  bucket?: BucketUnit;
  /** Write shards per bucket (row id % shards): each takes 1/shards of the writes. Default 1. */
  shards?: number;
}
