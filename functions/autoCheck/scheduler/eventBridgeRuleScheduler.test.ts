import {
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
  UpdateScheduleCommand,
} from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { eventBridgeCron, eventBridgeRuleScheduler } from './eventBridgeRuleScheduler.js';
import type { ScheduledRule } from './ruleScheduler.js';

const mock = mockClient(SchedulerClient);
const scheduler = eventBridgeRuleScheduler({
  client: new SchedulerClient({ region: 'eu-central-1' }),
  groupName: 'patrol-dev-auto-check',
  targetArn: 'arn:aws:lambda:eu-central-1:123456789012:function:autoCheck',
  roleArn: 'arn:aws:iam::123456789012:role/invoke',
});

const inputs = <T>(command: new (...args: never[]) => T) =>
  mock.commandCalls(command as never).map((c) => c.args[0].input as Record<string, unknown>);

const rule7: ScheduledRule = { id: 7, enable: true, times: [{ day: 1, times: ['09:30'] }] };

beforeEach(() => {
  mock.reset();
  mock.on(CreateScheduleCommand).resolves({});
  mock.on(UpdateScheduleCommand).resolves({});
  mock.on(DeleteScheduleCommand).resolves({});
});

describe('the EventBridge Scheduler adapter', () => {
  it('writes Monday 09:30 as a cron in the configured zone, targeting the handler with the rule and slot', async () => {
    await scheduler.syncRule(rule7, 'Asia/Yangon');

    const [create] = inputs(CreateScheduleCommand);
    expect(create).toMatchObject({
      Name: 'rule-7-34200',
      GroupName: 'patrol-dev-auto-check',
      ScheduleExpression: 'cron(30 9 ? * MON *)',
      ScheduleExpressionTimezone: 'Asia/Yangon',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: {
        Arn: 'arn:aws:lambda:eu-central-1:123456789012:function:autoCheck',
        RoleArn: 'arn:aws:iam::123456789012:role/invoke',
      },
    });
    expect(JSON.parse((create.Target as { Input: string }).Input)).toEqual({
      ruleId: 7,
      weekStamp: 34_200,
      scheduledTime: '<aws.scheduler.scheduled-time>',
    });
  });

  it('moves an edited rule: keeps the slot that stays, creates the new one, deletes the old one', async () => {
    const before: ScheduledRule = {
      id: 7,
      enable: true,
      times: [
        { day: 1, times: ['09:30'] },
        { day: 2, times: ['09:30'] },
      ],
    };
    await scheduler.syncRule(
      {
        id: 7,
        enable: true,
        times: [
          { day: 1, times: ['09:30'] },
          { day: 3, times: ['18:00'] },
        ],
      },
      'Asia/Yangon',
      before,
    );
    expect(inputs(UpdateScheduleCommand).map((i) => i.Name)).toEqual(['rule-7-34200']);
    expect(inputs(CreateScheduleCommand).map((i) => i.Name)).toEqual(['rule-7-237600']);
    expect(inputs(DeleteScheduleCommand).map((i) => i.Name)).toEqual(['rule-7-120600']);
  });

  it('removes every schedule of a disabled rule, and of a deleted one', async () => {
    const before: ScheduledRule = {
      id: 7,
      enable: true,
      times: [
        { day: 1, times: ['09:30'] },
        { day: 2, times: ['09:30'] },
      ],
    };
    await scheduler.syncRule({ ...before, enable: false }, 'UTC', before);
    expect(
      inputs(DeleteScheduleCommand)
        .map((i) => i.Name)
        .sort(),
    ).toEqual(['rule-7-120600', 'rule-7-34200']);
    expect(inputs(CreateScheduleCommand)).toEqual([]);

    mock.resetHistory();
    await scheduler.removeRule(before);
    expect(
      inputs(DeleteScheduleCommand)
        .map((i) => i.Name)
        .sort(),
    ).toEqual(['rule-7-120600', 'rule-7-34200']);
  });

  it('moves every schedule to a new time zone and removes those of disabled rules', async () => {
    await scheduler.resyncAll(
      [
        { id: 1, enable: true, times: [{ day: 1, times: ['09:30'] }] },
        { id: 2, enable: true, times: [{ day: 1, times: ['00:00'] }] },
        { id: 3, enable: false, times: [{ day: 1, times: ['00:00'] }] },
      ],
      'Europe/Berlin',
    );
    expect(inputs(UpdateScheduleCommand).map((i) => [i.Name, i.ScheduleExpressionTimezone])).toEqual([
      ['rule-1-34200', 'Europe/Berlin'],
      ['rule-2-0', 'Europe/Berlin'],
    ]);
    expect(inputs(DeleteScheduleCommand).map((i) => i.Name)).toEqual(['rule-3-0']);
  });

  it('never lists schedules: the API holds no scheduler permission on every resource', async () => {
    await scheduler.syncRule(rule7, 'UTC', rule7);
    await scheduler.resyncAll([rule7], 'UTC');
    await scheduler.removeRule(rule7);
    const commands = mock.calls().map((c) => (c.args[0] as object).constructor.name);
    expect(commands.filter((name) => name.startsWith('List'))).toEqual([]);
  });

  it('creates a schedule that vanished before its update, and ignores one already deleted', async () => {
    mock
      .on(UpdateScheduleCommand)
      .rejects(new ResourceNotFoundException({ message: 'gone', Message: 'gone', $metadata: {} }));
    mock
      .on(DeleteScheduleCommand)
      .rejects(new ResourceNotFoundException({ message: 'gone', Message: 'gone', $metadata: {} }));
    await scheduler.syncRule(rule7, 'UTC', { id: 7, enable: true, times: [{ day: 1, times: ['00:00', '09:30'] }] });
    expect(inputs(CreateScheduleCommand).map((i) => i.Name)).toEqual(['rule-7-34200']);
    expect(inputs(DeleteScheduleCommand).map((i) => i.Name)).toEqual(['rule-7-0']);
  });

  it('names days MON to SUN: our Sunday 7 is no cron Saturday', () => {
    expect(eventBridgeCron({ day: 7, time: '23:59' })).toBe('cron(59 23 ? * SUN *)');
  });
});
