import { RemovalPolicy } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  type ITable,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import {
  ALL_INDEXES,
  type IndexProjection,
  RETIRED_INDEXES,
  TABLE_KEYS,
  TTL_ATTRIBUTE,
} from '../../functions/lib/db/tableSchema.js';

export interface DataProps {
  /** Retained in production: the table holds every site, account and check history. */
  removalPolicy: RemovalPolicy;
  /**
   * A table made outside the stack (a point-in-time restore) that the stage adopts instead of
   * creating its own (stage `tableName`, `tableStreamArn`). Its stream, TTL, point-in-time recovery
   * and deletion protection are set by `npm run restore`, which made it.
   */
  adopt?: { tableName: string; streamArn: string };
  /**
   * Retired indexes (tableSchema.ts RETIRED_INDEXES) the stage's table still has, kept for the deploy
   * that creates their successors; the next deploy without them deletes them (docs/deploy.md
   * "Changing an index").
   */
  keptIndexes?: readonly string[];
}

/** The single DynamoDB table, shaped by the same schema the local runner creates its table from. */
export class Data extends Construct {
  readonly table: ITable;

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);
    if (props.adopt) {
      // Adopting removes the stack's own table from the template: a retaining stage keeps it (the
      // restore's source), a destroying one deletes it with this deploy.
      this.table = Table.fromTableAttributes(this, 'Table', {
        tableName: props.adopt.tableName,
        tableStreamArn: props.adopt.streamArn,
        // The restore keeps every index: grants must reach them as they do on the stack's table.
        grantIndexPermissions: true,
      });
      return;
    }
    const retained = props.removalPolicy !== RemovalPolicy.DESTROY;
    const table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
      // Checks come in bursts (batch checks, auto-check rules) and sit idle otherwise.
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TTL_ATTRIBUTE,
      // Old images let the expiry stream handler move the list counters of rows TTL deletes.
      stream: StreamViewType.OLD_IMAGE,
      encryption: TableEncryption.AWS_MANAGED,
      removalPolicy: props.removalPolicy,
      deletionProtection: retained,
    });
    // Each index as lib/db declares it, projection included (tests/infra/indexes.test.ts holds them equal).
    const kept = RETIRED_INDEXES.filter((i) => props.keptIndexes?.includes(i.name));
    const unknown = (props.keptIndexes ?? []).filter((name) => !kept.some((i) => i.name === name));
    if (unknown.length) throw new Error(`keptIndexes: ${unknown.join(', ')} is no retired index (tableSchema.ts)`);
    for (const index of [...ALL_INDEXES, ...kept]) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        ...projectionProps(index.projection),
      });
    }
    this.table = table;
  }

  grantReadWrite(grantee: IGrantable): void {
    this.table.grantReadWriteData(grantee);
  }

  grantRead(grantee: IGrantable): void {
    this.table.grantReadData(grantee);
  }
}

function projectionProps(p: IndexProjection): { projectionType: ProjectionType; nonKeyAttributes?: string[] } {
  if (p.type === 'INCLUDE') return { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...p.attributes] };
  return { projectionType: p.type === 'ALL' ? ProjectionType.ALL : ProjectionType.KEYS_ONLY };
}
