import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OUTBOX_INDEX, TABLE_INDEXES } from '../../functions/lib/db/tableSchema.js';
import { ALARM_KINDS, OLDEST_MESSAGE_ALARM_S, PRODUCT_ALARMS } from '../../infra/constructs/Alarms.js';
import { REPO_ROOT } from '../../infra/PatrolStack.js';
import { STAGE_DEFAULTS, STAGE_KEYS } from '../../infra/stageConfig.js';
import { cdkContext, synthStage } from './synthStack.js';
import { ofType } from './templateQueries.js';

// docs/deploy.md against the code and a synthesized prod stage: "every claim in it is true of the
// template", as far as a claim can be read back.

const guide = readFileSync(path.join(REPO_ROOT, 'docs', 'deploy.md'), 'utf8');
const section = (title: string) => {
  const start = guide.indexOf(`## ${title}`);
  expect(start, title).toBeGreaterThanOrEqual(0);
  const end = guide.indexOf('\n## ', start + 3);
  return guide.slice(start, end < 0 ? undefined : end);
};
/** The cells of the table row whose first cell is `key` in backticks. */
const row = (text: string, key: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`| \`${key}\` |`));
  return line?.split(' | ').map((c) => c.replace(/^\| |\|$/g, '').trim());
};
const { main, edge, mainTemplate, edgeTemplate } = synthStage('prod');

/** Every command the guide shows: its code blocks' lines and its inline code spans. */
const commands = [
  // A shell line continued with a backslash is one command.
  ...[...guide.matchAll(/```(?:sh|yaml)\n([\s\S]*?)```/g)].flatMap((m) => m[1].replace(/\\\n/g, ' ').split('\n')),
  // Inline spans of the prose, the code blocks taken out first (their fences are backticks too).
  ...[...guide.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]),
].filter((line) => /\b(npm|npx|aws|jq)\b/.test(line));
const scripts = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).scripts as Record<
  string,
  string
>;
/** The outputs of both stacks (a deploy prints both). */
const outputs = [...Object.keys(mainTemplate.toJSON().Outputs), ...Object.keys(edgeTemplate.toJSON().Outputs)];

describe('docs/deploy.md', () => {
  it('lists every stage setting with the default and the dev and prod values of cdk.json', () => {
    const settings = section('Stage settings');
    const stages = cdkContext.stages as Record<string, Record<string, unknown>>;
    // Every key the stage schema accepts (STAGE_KEYS), defaulted or not.
    for (const key of new Set([...Object.keys(STAGE_DEFAULTS), ...STAGE_KEYS])) {
      const cells = row(settings, key);
      expect(cells, key).toBeDefined();
      const value = (STAGE_DEFAULTS as unknown as Record<string, unknown>)[key];
      if (typeof value === 'number' || typeof value === 'string') {
        expect(cells?.[1], `${key} default`).toContain(String(value));
        for (const [i, stage] of [
          [2, 'dev'],
          [3, 'prod'],
        ] as const) {
          expect(cells?.[i], `${key} ${stage}`).toContain(String(stages[stage][key] ?? value));
        }
      }
    }
  });

  it('has a runbook line for every kind of alarm, with the thresholds the alarms use', () => {
    const runbook = section('Alarms and what to do');
    for (const kind of ALARM_KINDS) expect(row(runbook, kind), kind).toBeDefined();
    const age = row(runbook, 'queue-age')?.[1] ?? '';
    for (const [queue, seconds] of Object.entries(OLDEST_MESSAGE_ALARM_S)) {
      expect(age).toContain(`${seconds.toLocaleString('en')} s (\`${queue}\`)`);
    }
    for (const metric of Object.keys(PRODUCT_ALARMS)) expect(runbook).toContain(`\`${metric}\``);
  });

  it('names exactly the outputs the stack prints', () => {
    const paragraph = guide.slice(guide.indexOf('The main stack prints these outputs'));
    const named = [...paragraph.slice(0, paragraph.indexOf('\n\n')).matchAll(/`(\w+)`/g)].map((m) => m[1]);
    expect(named.sort()).toEqual(Object.keys(mainTemplate.toJSON().Outputs).sort());
  });

  it('counts the indexes and the secrets as the template has them', () => {
    const indexes = [...TABLE_INDEXES, OUTBOX_INDEX];
    expect(guide).toContain(`${indexes.length} global secondary indexes`);
    const [[, table]] = ofType(mainTemplate, 'AWS::DynamoDB::Table');
    expect(table.Properties?.GlobalSecondaryIndexes).toHaveLength(indexes.length);
    const secrets = ofType(mainTemplate, 'AWS::SecretsManager::Secret');
    expect(secrets).toHaveLength(3);
    expect(guide).toContain('Three Secrets Manager secrets');
    expect(guide).not.toMatch(/three GSIs|one secret\b|SSM parameter in us-east-1/);
  });

  it('says rightly how the main stack reads the edge stack: its outputs, by Fn::GetStackOutput, no SSM', () => {
    const [[, distribution]] = ofType(mainTemplate, 'AWS::CloudFront::Distribution');
    expect(distribution.Properties?.DistributionConfig.WebACLId).toEqual({
      'Fn::GetStackOutput': { StackName: edge.stackName, Region: 'us-east-1', OutputName: expect.any(String) },
    });
    const outputName = distribution.Properties?.DistributionConfig.WebACLId['Fn::GetStackOutput'].OutputName;
    expect(Object.keys(edgeTemplate.toJSON().Outputs)).toContain(outputName);
    expect(main.region).not.toBe(edge.region);
    for (const t of [mainTemplate, edgeTemplate]) {
      expect(Object.values(t.toJSON().Resources).map((r) => (r as { Type: string }).Type)).not.toContainEqual(
        expect.stringMatching(/^AWS::SSM::|CrossRegion/),
      );
    }
    expect(guide).toContain("the main stack reads with CloudFormation's `Fn::GetStackOutput`");
  });
});

describe('docs/deploy.md commands', () => {
  it('shows commands at all (the reader below finds them)', () => {
    expect(commands.length).toBeGreaterThan(20);
  });

  it('runs only npm scripts that exist', () => {
    const named = commands.flatMap((c) => [...c.matchAll(/npm run (?:--silent )?([\w:-]+)/g)].map((m) => m[1]));
    expect(named).toEqual(expect.arrayContaining(['preflight', 'repair', 'restore', 'nag', 'smoke', 'build']));
    for (const name of named) expect(Object.keys(scripts), `npm run ${name}`).toContain(name);
  });

  it('passes with -c only stage settings that exist (or the stage itself)', () => {
    const keys = commands.flatMap((c) => [...c.matchAll(/-c (\w+)=/g)].map((m) => m[1]));
    expect(keys).toEqual(expect.arrayContaining(['stage', 'alarmEmail', 'monthlyBudgetUsd']));
    for (const key of keys) expect(['stage', ...STAGE_KEYS], `-c ${key}=`).toContain(key);
  });

  it('names only outputs the template has', () => {
    const named = commands.flatMap((c) => [
      ...[...c.matchAll(/OutputKey=='(\w+)'/g)].map((m) => m[1]),
      ...[...c.matchAll(/\]\.(\w+)'/g)].map((m) => m[1]),
      // A placeholder like <SecretsKeyArn> stands for the output of that name.
      ...[...c.matchAll(/<([A-Z][a-z]\w+)>/g)].map((m) => m[1]),
    ]);
    expect(named).toEqual(expect.arrayContaining(['AdminPasswordSecret', 'ConsoleUrl', 'SecretsKeyArn']));
    for (const name of named) expect(outputs, name).toContain(name);
  });

  it('lists only routes that are routed: the HTTP API sends them to the app, and the app has them', async () => {
    const { router, rootRouter } = await import('../../functions/api.js');
    const gateway = ofType(mainTemplate, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties?.RouteKey as string);
    const listed = [...guide.matchAll(/`(?:[A-Z]+ )?(?:https:\/\/<[^>]+>)?(\/(?:api\/v1|webhook)\/[^`\s]*)`/g)]
      .map((m) => m[1])
      // Patterns and "any path under" are not routes of their own.
      .filter((p) => !/[{*]|\.\.\./.test(p));
    expect(listed).toEqual(expect.arrayContaining(['/webhook/bank', '/webhook/telegram', '/api/v1/openapi.json']));
    for (const p of new Set(listed)) {
      if (p.startsWith('/api/v1/')) {
        expect(gateway, p).toContain('ANY /api/v1/{proxy+}');
        const inApp = p.slice('/api/v1'.length);
        expect(
          router.routes.some((r) => r.match(inApp)),
          p,
        ).toBe(true);
      } else {
        expect(gateway, p).toContain(`POST ${p}`);
        expect(
          rootRouter.routes.some((r) => r.match(p)),
          p,
        ).toBe(true);
      }
    }
  });
});

describe('docs/costs.md', () => {
  const costs = readFileSync(path.join(REPO_ROOT, 'docs', 'costs.md'), 'utf8');

  it('prices as many alarm metrics, secrets and custom metrics as the prod stage has', () => {
    const alarms = [
      ...ofType(mainTemplate, 'AWS::CloudWatch::Alarm'),
      ...ofType(edgeTemplate, 'AWS::CloudWatch::Alarm'),
    ];
    // CloudWatch bills an alarm per metric it reads: a metric-math alarm counts each of its metrics.
    const metrics = alarms.reduce(
      (n, [, a]) =>
        n +
        (a.Properties?.Metrics ? a.Properties.Metrics.filter((m: { MetricStat?: unknown }) => m.MetricStat).length : 1),
      0,
    );
    expect(costs).toContain(`| Alarms | $${(metrics * 0.1).toFixed(2)} | — | ${metrics} alarm metrics × $0.10`);
    expect(costs).toContain(`${ofType(mainTemplate, 'AWS::SecretsManager::Secret').length} secrets × $0.40`);
    expect(costs).toContain(`${Object.keys(PRODUCT_ALARMS).length} metrics × 1 stage dimension × $0.30`);
  });
});
