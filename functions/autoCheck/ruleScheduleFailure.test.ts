// A rule and its schedules change together: when the cloud scheduler refuses, the operator gets a
// 503 and the rule stays exactly as it was (the rule store is the real local engine, dynalite; the
// scheduler is the EventBridge adapter over a mocked client, the cloud-only path).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateScheduleCommand,
  DeleteScheduleCommand,
  SchedulerClient,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ERRORS } from '../../shared/errors.js';
import { emptyListQuery } from '../../shared/listQuery.js';
import { RuleBody } from '../../shared/schemas/autoCheck.js';
import { setupDynamo } from '../../tests/data/engine.js';
import { resetSecretKeys } from '../lib/secrets/index.js';
import { memorySiteStore } from '../sites/memorySiteStore.js';
import { createSite } from '../sites/service.js';
import { useSiteStore } from '../sites/store.js';
import { RuleScheduleError } from './errors.js';
import { eventBridgeRuleScheduler } from './scheduler/eventBridgeRuleScheduler.js';
import { useRuleScheduler } from './scheduler/ruleSchedulerInUse.js';
import { createRule, getRule, listRules, updateRule } from './service.js';

setupDynamo();

const mock = mockClient(SchedulerClient);
const outage = Object.assign(new Error('Service unavailable'), { name: 'ServiceUnavailableException' });
let dir: string;
let siteId: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'patrol-rule-schedule-'));
  process.env.SECRETS_KEY_FILE = join(dir, 'secrets.key');
  resetSecretKeys();
  useSiteStore(memorySiteStore());
  siteId = (await createSite({ name: 'Alpha', url: 'https://alpha.test', accounts: [{ user: 'a1', pwd: 'p1' }] })).id;
  useRuleScheduler(
    eventBridgeRuleScheduler({
      client: new SchedulerClient({ region: 'eu-central-1' }),
      groupName: 'patrol-test-auto-check',
      targetArn: 'arn:aws:lambda:eu-central-1:123456789012:function:autoCheck',
      roleArn: 'arn:aws:iam::123456789012:role/invoke',
    }),
  );
});
afterAll(async () => {
  useRuleScheduler(undefined);
  useSiteStore(undefined);
  await rm(dir, { recursive: true, force: true });
});

/** Schedules the mocked scheduler holds, by name, so a sync finds what an earlier one created. */
const held = new Set<string>();
/** The scheduler answers; `down` makes every write fail as an outage would. */
function scheduler({ down }: { down: boolean }) {
  mock.reset();
  for (const command of [CreateScheduleCommand, UpdateScheduleCommand, DeleteScheduleCommand]) {
    if (down) mock.on(command as never).rejects(outage);
    else
      mock.on(command as never).callsFake((input: { Name: string }) => {
        if (command === DeleteScheduleCommand) held.delete(input.Name);
        else held.add(input.Name);
        return {};
      });
  }
}
beforeEach(() => scheduler({ down: false }));

const body = (name: string, times = ['09:30']) =>
  RuleBody.parse({ name, sites: [siteId], points: [{ point: 1, modes: [1] }], times: [{ day: 1, times }] });
const ruleNames = async () => (await listRules(emptyListQuery())).result.map((r) => r.name);

describe('a rule whose schedule cannot be saved', () => {
  it('is not created: the operator gets 503 and the list does not show it', async () => {
    scheduler({ down: true });
    const refused = createRule(body('Morning'), null);
    await expect(refused).rejects.toBeInstanceOf(RuleScheduleError);
    await expect(refused).rejects.toMatchObject({ status: 503, code: ERRORS.ScheduleUnavailable.code });
    expect(await ruleNames()).not.toContain('Morning');

    scheduler({ down: false });
    const rule = await createRule(body('Morning'), null);
    expect(await ruleNames()).toContain('Morning');
    expect(mock.commandCalls(CreateScheduleCommand)).toHaveLength(1);
    expect(rule.next_run).not.toBeNull();
  });

  it('keeps its times, its enable switch and its row when an edit, a disable or a delete cannot be scheduled', async () => {
    const rule = await createRule(body('Evening', ['18:00']), null);
    scheduler({ down: true });

    await expect(updateRule(rule.id, body('Evening moved', ['20:00']))).rejects.toMatchObject({ status: 503 });
    await expect(updateRule(rule.id, { enable: false })).rejects.toMatchObject({ status: 503 });
    await expect(updateRule(rule.id, { delete: 1 })).rejects.toMatchObject({ status: 503 });
    expect(await getRule(rule.id)).toMatchObject({
      name: 'Evening',
      enable: true,
      times: [{ day: 1, times: ['18:00'] }],
    });

    scheduler({ down: false });
    await expect(updateRule(rule.id, { enable: false })).resolves.toMatchObject({ enable: false });
    await expect(updateRule(rule.id, { delete: 1 })).resolves.toBeNull();
    expect(await ruleNames()).not.toContain('Evening');
  });
});
