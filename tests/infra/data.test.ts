import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ALL_INDEXES, OUTBOX_INDEX, TABLE_KEYS, TTL_ATTRIBUTE } from '../../functions/lib/db/tableSchema.js';
import { synthStack } from './synthStack.js';
import { type Json, ofType } from './templateQueries.js';

const { projection: _, ...OUTBOX_INDEX_KEYS } = OUTBOX_INDEX;

describe('Data: the single table', () => {
  const { template } = synthStack();

  it('has the keys, indexes and TTL attribute of tableSchema, on demand with point-in-time recovery', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
    });
  });

  it('declares exactly the global secondary indexes of tableSchema, each with its declared projection', () => {
    const [[, table]] = ofType(template, 'AWS::DynamoDB::Table');
    const indexes = table.Properties?.GlobalSecondaryIndexes.map((i: Json) => ({
      name: i.IndexName,
      partitionKey: i.KeySchema.find((k: Json) => k.KeyType === 'HASH').AttributeName,
      sortKey: i.KeySchema.find((k: Json) => k.KeyType === 'RANGE').AttributeName,
      projection: i.Projection.ProjectionType,
    }));
    // The details (attributes, limits, what each entity's lists need): tests/infra/indexes.test.ts.
    expect(indexes).toEqual(
      ALL_INDEXES.map((i) => ({
        name: i.name,
        partitionKey: i.partitionKey,
        sortKey: i.sortKey,
        projection: i.projection.type,
      })),
    );
    expect(indexes.at(-1)).toEqual({ ...OUTBOX_INDEX_KEYS, projection: 'KEYS_ONLY' });
  });

  it('may be deleted with a development stage', () => {
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Delete' });
  });

  it('is retained and protected from deletion in prod, but removed when its first create fails', () => {
    const prod = synthStack({ stage: 'prod' }).template;
    prod.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'RetainExceptOnCreate',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
    });
  });
});
