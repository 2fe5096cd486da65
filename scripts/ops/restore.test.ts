import {
  DescribeTableCommand,
  DynamoDBClient,
  RestoreTableToPointInTimeCommand,
  TagResourceCommand,
  UpdateContinuousBackupsCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { main, type RestoreDeps, restoredTableName, withAdoptedTable } from './restore.js';

// npm run restore against a mocked DynamoDB and fake outputs, deploy, invocation and repair: the
// steps in order, with what a restore leaves out put back and the stage pointed at the new table.

const dynamo = mockClient(DynamoDBClient);
const SOURCE = 'Patrol-prod-DataTableABC-XYZ';
const STREAM =
  'arn:aws:dynamodb:eu-central-1:123456789012:table/patrol-prod-202612070930/stream/2026-12-07T10:00:00.000';
const CDK_JSON = JSON.stringify(
  {
    app: 'npx tsx infra/app.ts',
    context: {
      stage: 'dev',
      stages: { dev: { removalPolicy: 'destroy' }, prod: { removalPolicy: 'retain', alarms: true } },
    },
  },
  null,
  2,
);

let calls: string[];
let written: string | undefined;
const deps = (): RestoreDeps => ({
  dynamo: new DynamoDBClient({ region: 'eu-central-1' }),
  outputs: async () => ({ TableName: SOURCE, SyncSchedulesFunction: 'Patrol-prod-sync' }),
  invoke: async (fn) => {
    calls.push(`invoke ${fn}`);
    return { rules: 3 };
  },
  deploy: async (stage, context) => {
    calls.push(`deploy ${stage} ${JSON.stringify(context)} ${written?.includes(STREAM)}`);
  },
  repair: async (stage) => {
    calls.push(`repair ${stage}`);
    return 0;
  },
  readCdkJson: () => written ?? CDK_JSON,
  writeCdkJson: (text) => {
    written = text;
  },
  sleep: async () => {},
  log: () => {},
});

beforeEach(() => {
  dynamo.reset();
  calls = [];
  written = undefined;
  dynamo.on(RestoreTableToPointInTimeCommand).resolves({});
  dynamo.on(UpdateTableCommand).resolves({});
  dynamo.on(UpdateTimeToLiveCommand).resolves({});
  dynamo.on(UpdateContinuousBackupsCommand).resolves({});
  dynamo.on(TagResourceCommand).resolves({});
  dynamo.on(DescribeTableCommand).resolves({
    Table: {
      TableStatus: 'ACTIVE',
      TableArn: 'arn:aws:dynamodb:eu-central-1:123456789012:table/patrol-prod-202612070930',
      LatestStreamArn: STREAM,
      GlobalSecondaryIndexes: [{ IndexName: 'byType', IndexStatus: 'ACTIVE' }],
    },
  });
});

const inputs = (command: new (...args: never[]) => unknown) =>
  dynamo.commandCalls(command as never).map((c) => c.args[0].input as Record<string, unknown>);

describe('npm run restore', () => {
  it('restores, re-enables stream, TTL, PITR and protection, points the stage at the table, re-syncs, repairs', async () => {
    const argv = ['--stage', 'prod', '--to', '2026-12-07T09:30:00Z', '-c', 'alarmEmail=ops@example.com'];
    expect(await main(argv, deps())).toBe(0);
    const target = restoredTableName('prod', new Date('2026-12-07T09:30:00Z'));
    expect(target).toBe('patrol-prod-202612070930');
    expect(inputs(RestoreTableToPointInTimeCommand)).toEqual([
      {
        SourceTableName: SOURCE,
        TargetTableName: target,
        RestoreDateTime: new Date('2026-12-07T09:30:00Z'),
        BillingModeOverride: 'PAY_PER_REQUEST',
        SSESpecificationOverride: { Enabled: true, SSEType: 'KMS' },
      },
    ]);
    expect(inputs(UpdateTableCommand)).toEqual([
      { TableName: target, StreamSpecification: { StreamEnabled: true, StreamViewType: 'OLD_IMAGE' } },
      { TableName: target, DeletionProtectionEnabled: true },
    ]);
    expect(inputs(UpdateTimeToLiveCommand)).toEqual([
      { TableName: target, TimeToLiveSpecification: { Enabled: true, AttributeName: 'expires_at' } },
    ]);
    expect(inputs(UpdateContinuousBackupsCommand)[0]).toMatchObject({
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
    expect(inputs(TagResourceCommand)[0].Tags).toEqual([
      { Key: 'project', Value: 'patrol' },
      { Key: 'stage', Value: 'prod' },
    ]);
    // cdk.json names the table and its stream before the deploy runs; nothing else of it changed.
    expect(JSON.parse(written as string).context.stages.prod).toEqual({
      removalPolicy: 'retain',
      alarms: true,
      tableName: target,
      tableStreamArn: STREAM,
    });
    expect(calls).toEqual([
      'deploy prod {"alarmEmail":"ops@example.com"} true',
      'invoke Patrol-prod-sync',
      'repair prod',
    ]);
  });

  it('leaves deletion protection off in a destroying stage', async () => {
    expect(await main(['--stage', 'dev', '--to', '2026-12-07T09:30:00Z'], deps())).toBe(0);
    expect(inputs(UpdateTableCommand).filter((i) => 'DeletionProtectionEnabled' in i)).toEqual([]);
  });

  it('with --dry-run only prints the steps: no AWS call, cdk.json untouched', async () => {
    const printed: string[] = [];
    const argv = ['--stage', 'prod', '--to', '2026-12-07T09:30:00Z', '--dry-run'];
    expect(await main(argv, { ...deps(), log: (l) => void printed.push(l) })).toBe(0);
    expect(printed).toHaveLength(5);
    expect(dynamo.calls()).toHaveLength(0);
    expect(written).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('stops at the first step that fails, before pointing the stage anywhere', async () => {
    dynamo.on(RestoreTableToPointInTimeCommand).rejects(new Error('PointInTimeRecoveryUnavailableException'));
    await expect(main(['--stage', 'prod', '--to', '2026-12-07T09:30:00Z'], deps())).rejects.toThrow(/PointInTime/);
    expect(written).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('changes only the stage entry of cdk.json', () => {
    const next = withAdoptedTable(CDK_JSON, 'prod', 't', 's');
    expect(JSON.parse(next)).toEqual({
      ...JSON.parse(CDK_JSON),
      context: {
        ...JSON.parse(CDK_JSON).context,
        stages: {
          ...JSON.parse(CDK_JSON).context.stages,
          prod: { removalPolicy: 'retain', alarms: true, tableName: 't', tableStreamArn: 's' },
        },
      },
    });
    expect(() => withAdoptedTable(CDK_JSON, 'qa', 't', 's')).toThrow(/no stage 'qa'/);
  });
});
