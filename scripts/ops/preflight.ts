// npm run preflight -- --stage prod
//
// Before the first deploy of a stage to an account: reads the account's Lambda concurrency quota
// (Service Quotas, in the shell's region) and refuses (exit 1) when the stage's ceilings plus
// headroom exceed it, saying how to ask for more. A new account may start at 10, while prod's queue
// consumers alone may run 34 at once: every throttle alarm would fire from day one. Exit 2 on a
// usage or AWS error.
import {
  GetAWSDefaultServiceQuotaCommand,
  GetServiceQuotaCommand,
  NoSuchResourceException,
  ServiceQuotasClient,
} from '@aws-sdk/client-service-quotas';
import { deploysInCloud, LAMBDAS, type LambdaDef } from '../../functions/registry.js';
import { loadCdkContext } from '../../infra/cdkContext.js';
import { resolveStageConfig, type StageConfig } from '../../infra/stageConfig.js';
import { parseOpsArgs, runMain } from './cli.js';

/** Lambda's "Concurrent executions" quota of an account and region. */
export const LAMBDA_CONCURRENCY = { ServiceCode: 'lambda', QuotaCode: 'L-B99A9384' } as const;
/** Kept for the API's requests at once (its instances answer in tens of ms; 10 is a busy office). */
export const API_HEADROOM = 10;
/** Lambda's smallest SQS maximum concurrency (Functions.ts uses the same floor). */
const MIN_SQS_CONCURRENCY = 2;

export interface StageNeed {
  /** Each queue consumer's ceiling (stage `concurrency`, else the registry's). */
  consumers: { name: string; concurrency: number }[];
  /** One at once for every other deployed function (schedules, stream, triggers, by hand). */
  others: number;
  api: number;
  total: number;
}

/** What the stage may run at once at most: its consumers' ceilings plus headroom for the rest. */
export function stageNeed(stage: Pick<StageConfig, 'concurrency'>, lambdas: readonly LambdaDef[] = LAMBDAS): StageNeed {
  const deployed = lambdas.filter(deploysInCloud);
  const consumers = deployed.flatMap((d) =>
    d.trigger.type === 'sqs'
      ? [
          {
            name: d.name,
            concurrency: Math.max(MIN_SQS_CONCURRENCY, stage.concurrency[d.name] ?? d.trigger.concurrency),
          },
        ]
      : [],
  );
  const others = deployed.filter((d) => d.trigger.type !== 'sqs' && d.trigger.type !== 'http').length;
  const total = consumers.reduce((n, c) => n + c.concurrency, 0) + others + API_HEADROOM;
  return { consumers, others, api: API_HEADROOM, total };
}

/** The account's quota as applied, or AWS's default when the account never had it set. */
export async function concurrencyQuota(client: ServiceQuotasClient): Promise<number> {
  try {
    const out = await client.send(new GetServiceQuotaCommand(LAMBDA_CONCURRENCY));
    if (out.Quota?.Value !== undefined) return out.Quota.Value;
  } catch (error) {
    if (!(error instanceof NoSuchResourceException)) throw error;
  }
  const out = await client.send(new GetAWSDefaultServiceQuotaCommand(LAMBDA_CONCURRENCY));
  if (out.Quota?.Value === undefined) throw new Error('Service Quotas gave no Lambda concurrency quota');
  return out.Quota.Value;
}

/** The check itself: `ok` and the lines to print. */
export async function preflight(
  stage: StageConfig,
  client: ServiceQuotasClient,
): Promise<{ ok: boolean; quota: number; need: StageNeed; lines: string[] }> {
  const [quota, need] = [await concurrencyQuota(client), stageNeed(stage)];
  const consumers = need.consumers.map((c) => `${c.name} ${c.concurrency}`).join(', ');
  const lines = [
    `Stage '${stage.name}' may run ${need.total} Lambda invocations at once: queue consumers ${need.consumers.reduce((n, c) => n + c.concurrency, 0)} (${consumers}), ${need.others} other functions one each, ${need.api} for the API.`,
    `This account's Lambda concurrency quota in this region: ${quota}.`,
  ];
  const ok = need.total <= quota;
  if (ok) lines.push('OK: the quota holds the stage. Other stages in this account share it: add theirs.');
  else
    lines.push(
      `Refused: ${need.total} > ${quota}. Functions would be throttled (function-throttles alarms from day one).`,
      'Ask for more before deploying (granted in hours to days; a new account is often raised to 1,000):',
      `  aws service-quotas request-service-quota-increase --service-code ${LAMBDA_CONCURRENCY.ServiceCode} --quota-code ${LAMBDA_CONCURRENCY.QuotaCode} --desired-value 1000`,
      '  (or the Service Quotas console: AWS Lambda, "Concurrent executions"), or lower the stage\'s `concurrency` in cdk.json.',
    );
  return { ok, quota, need, lines };
}

export async function main(argv = process.argv.slice(2), client = new ServiceQuotasClient({})): Promise<number> {
  const args = parseOpsArgs(argv, 'usage: npm run preflight -- --stage <name>');
  const context = loadCdkContext();
  // Only `concurrency` matters here: the settings a deploy must pass (alarmEmail...) are not asked for.
  const stages = context.stages as Record<string, Record<string, unknown>>;
  const own = stages?.[args.stage];
  const stage = resolveStageConfig(
    own ? { ...stages, [args.stage]: { ...own, alarms: false, monthlyBudgetUsd: undefined } } : stages,
    args.stage,
  );
  const { ok, lines } = await preflight(stage, client);
  for (const line of lines) (ok ? console.log : console.error)(line);
  return ok ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) runMain(() => main());
