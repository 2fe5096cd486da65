// npm run restore -- --stage prod --to 2026-12-07T09:30:00Z [--dry-run] [-c alarmEmail=… -c monthlyBudgetUsd=…]
//
// A point-in-time restore of a stage's table, back to a running stage. Prints each step, then runs
// it, with its time:
//   1. restore the stage's table (stack output TableName) as it was at --to, into a new table;
//   2. give the new table what a restore leaves out: its stream (old images), TTL, point-in-time
//      recovery, deletion protection (in a retaining stage) and the stack's tags;
//   3. point the stage at it: `tableName` and `tableStreamArn` under context.stages.<stage> in
//      cdk.json (commit that change: a deploy without it would go back to the old table), then
//      `npx cdk deploy --all`;
//   4. re-sync the auto-check schedules from the restored rules (syncSchedules);
//   5. run the data repair until done (npm run repair).
// --dry-run prints the steps only. Exit 0 when every step ran, 2 when one failed (the lines before
// say which; each step can be run again, and the later ones by hand as the guide shows).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DescribeTableCommand,
  DynamoDBClient,
  RestoreTableToPointInTimeCommand,
  TagResourceCommand,
  UpdateContinuousBackupsCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { TTL_ATTRIBUTE } from '../../functions/lib/db/tableSchema.js';
import { resolveStageConfig } from '../../infra/stageConfig.js';
import { invokeLive, output, parseOpsArgs, runMain, sleep, stageOutputs } from './cli.js';
import { main as repair } from './repair.js';

const USAGE =
  'usage: npm run restore -- --stage <name> --to <ISO time> [--name <new table>] [--dry-run] [-c key=value]';
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CDK_JSON = path.join(REPO_ROOT, 'cdk.json');

/** `patrol-<stage>-<yyyymmddhhmm of --to>`: a name that says what it holds. */
export function restoredTableName(stage: string, to: Date): string {
  return `patrol-${stage}-${to.toISOString().slice(0, 16).replace(/[-:T]/g, '')}`;
}

/** cdk.json with the stage pointed at the adopted table; nothing else of the file changes. */
export function withAdoptedTable(cdkJson: string, stage: string, tableName: string, streamArn: string): string {
  const doc = JSON.parse(cdkJson);
  const entry = doc.context?.stages?.[stage];
  if (!entry) throw new Error(`cdk.json has no stage '${stage}'`);
  entry.tableName = tableName;
  entry.tableStreamArn = streamArn;
  return `${JSON.stringify(doc, null, 2)}\n`;
}

async function waitActive(client: DynamoDBClient, name: string, wait: (ms: number) => Promise<void>) {
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: name }));
    const indexesReady = (Table?.GlobalSecondaryIndexes ?? []).every((i) => i.IndexStatus === 'ACTIVE');
    if (Table?.TableStatus === 'ACTIVE' && indexesReady) return Table.LatestStreamArn;
    await wait(10_000);
  }
}

function cdkDeploy(stage: string, context: Record<string, string>): Promise<void> {
  const args = ['cdk', 'deploy', '--all', '--require-approval', 'never', '-c', `stage=${stage}`];
  for (const [k, v] of Object.entries(context)) args.push('-c', `${k}=${v}`);
  return new Promise((resolve, reject) => {
    const child = spawn('npx', args, { cwd: REPO_ROOT, stdio: 'inherit' });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cdk deploy exited with ${code}`))));
  });
}

/** What a restore reaches outside this process: AWS, CloudFormation's outputs, cdk.json, `cdk deploy`. */
export interface RestoreDeps {
  dynamo: DynamoDBClient;
  outputs(stage: string): Promise<Record<string, string>>;
  invoke(fn: string, payload: unknown): Promise<unknown>;
  deploy(stage: string, context: Record<string, string>): Promise<void>;
  repair(stage: string): Promise<number>;
  readCdkJson(): string;
  writeCdkJson(text: string): void;
  sleep(ms: number): Promise<void>;
  log(line: string): void;
}

const realDeps = (): RestoreDeps => ({
  dynamo: new DynamoDBClient({}),
  outputs: stageOutputs,
  invoke: (fn, payload) => invokeLive(fn, payload, 'wait'),
  deploy: cdkDeploy,
  repair: (stage) => repair(['--stage', stage, '--restart']),
  readCdkJson: () => readFileSync(CDK_JSON, 'utf8'),
  writeCdkJson: (text) => writeFileSync(CDK_JSON, text),
  sleep,
  log: (line) => console.log(line),
});

export async function main(argv = process.argv.slice(2), deps: RestoreDeps = realDeps()): Promise<number> {
  const args = parseOpsArgs(argv, USAGE, ['to', 'name']);
  const to = new Date(args.values.to ?? '');
  if (Number.isNaN(to.getTime())) throw new Error(`--to takes an ISO time, e.g. 2026-12-07T09:30:00Z (${USAGE})`);
  const stages = JSON.parse(deps.readCdkJson()).context.stages;
  // The stage's removal policy is what matters here; what only a deploy must be given is not asked for.
  const own = stages[args.stage];
  const stage = resolveStageConfig(
    own ? { ...stages, [args.stage]: { ...own, alarms: false, monthlyBudgetUsd: undefined } } : stages,
    args.stage,
  );
  const target = args.values.name ?? restoredTableName(args.stage, to);
  const dry = args.flags.has('dry-run');
  const outputs = dry ? {} : await deps.outputs(args.stage);
  const source = dry ? `<TableName of Patrol-${args.stage}>` : output(outputs, 'TableName', args.stage);
  const client = deps.dynamo;
  const log = deps.log;
  let streamArn = '<the new stream>';
  const began = Date.now();

  const steps: [string, () => Promise<void>][] = [
    [
      `1. Restore ${source} as of ${to.toISOString()} into ${target}`,
      async () => {
        await client.send(
          new RestoreTableToPointInTimeCommand({
            SourceTableName: source,
            TargetTableName: target,
            RestoreDateTime: to,
            BillingModeOverride: 'PAY_PER_REQUEST',
            // The stack's table is encrypted with the AWS managed key; a restore defaults to AWS owned.
            SSESpecificationOverride: { Enabled: true, SSEType: 'KMS' },
          }),
        );
        await waitUntilTableExists({ client, maxWaitTime: 6 * 3600, minDelay: 10 }, { TableName: target });
        await waitActive(client, target, deps.sleep);
      },
    ],
    [
      `2. On ${target}: stream (old images), TTL on ${TTL_ATTRIBUTE}, point-in-time recovery${stage.removalPolicy === 'retain' ? ', deletion protection' : ''}, tags`,
      async () => {
        await client.send(
          new UpdateTableCommand({
            TableName: target,
            StreamSpecification: { StreamEnabled: true, StreamViewType: 'OLD_IMAGE' },
          }),
        );
        streamArn = (await waitActive(client, target, deps.sleep)) ?? '';
        if (!streamArn) throw new Error(`${target} has no stream after enabling it`);
        await client.send(
          new UpdateTimeToLiveCommand({
            TableName: target,
            TimeToLiveSpecification: { Enabled: true, AttributeName: TTL_ATTRIBUTE },
          }),
        );
        await client.send(
          new UpdateContinuousBackupsCommand({
            TableName: target,
            PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          }),
        );
        if (stage.removalPolicy === 'retain') {
          await client.send(new UpdateTableCommand({ TableName: target, DeletionProtectionEnabled: true }));
          await waitActive(client, target, deps.sleep);
        }
        const { Table } = await client.send(new DescribeTableCommand({ TableName: target }));
        await client.send(
          new TagResourceCommand({
            ResourceArn: Table?.TableArn,
            Tags: [
              { Key: 'project', Value: 'patrol' },
              { Key: 'stage', Value: args.stage },
            ],
          }),
        );
      },
    ],
    [
      `3. Point the stage at it: cdk.json stages.${args.stage}.tableName = ${target} (and its tableStreamArn); npx cdk deploy --all -c stage=${args.stage}`,
      async () => {
        deps.writeCdkJson(withAdoptedTable(deps.readCdkJson(), args.stage, target, streamArn));
        log('   cdk.json changed: commit it, or the next deploy goes back to the old table.');
        await deps.deploy(args.stage, args.context);
      },
    ],
    [
      '4. Re-sync the auto-check schedules from the restored rules (SyncSchedulesFunction)',
      async () => {
        const fn = output(await deps.outputs(args.stage), 'SyncSchedulesFunction', args.stage);
        log(`   ${JSON.stringify(await deps.invoke(fn, {}))}`);
      },
    ],
    [
      `5. Run the data repair until done (npm run repair -- --stage ${args.stage})`,
      async () => {
        if ((await deps.repair(args.stage)) !== 0) throw new Error('the repair did not finish');
      },
    ],
  ];

  for (const [line] of steps) log(line);
  if (dry) return 0;
  log('');
  for (const [line, run] of steps) {
    const t = Date.now();
    log(`${line} ...`);
    await run();
    log(`   done in ${Math.round((Date.now() - t) / 1000)} s`);
  }
  log(`Restored in ${Math.round((Date.now() - began) / 60_000)} minutes. The old table ${source} is kept.`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) runMain(() => main());
