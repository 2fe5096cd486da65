import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { deploysInCloud, LAMBDAS } from '../../functions/registry.js';
import { RULE_SCHEDULE_ACTIONS } from '../../infra/constructs/RuleSchedules.js';
import { synthStack } from './synthStack.js';
import {
  type Json,
  functionId,
  liveAliasId,
  ofType,
  resources,
  type Statement,
  statementsOfFunction,
} from './templateQueries.js';

// Auto-check rule slots in the cloud (issue 14): a schedule group, a role EventBridge Scheduler
// assumes to invoke the auto-check handler, and an API that may keep the schedules and no more.

const { template } = synthStack();
const handlerId = functionId(template, 'autoCheck');
/** What the schedules invoke: the handler's live alias. */
const targetId = liveAliasId(template, 'autoCheck');
const [[groupId, group]] = ofType(template, 'AWS::Scheduler::ScheduleGroup');
const invokeRoles = ofType(template, 'AWS::IAM::Role').filter(([, r]) =>
  JSON.stringify(r.Properties?.AssumeRolePolicyDocument).includes('scheduler.amazonaws.com'),
);
const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);
const schedulerStatements = (statements: Statement[]) =>
  statements.filter((s) => actionsOf(s).some((a) => a.startsWith('scheduler:') || a === 'iam:PassRole'));

describe('auto-check rule schedules', () => {
  it('deploys the auto-check handler of the registry with no event source of its own', () => {
    expect(LAMBDAS.find((l) => l.name === 'autoCheck')?.trigger).toEqual({ type: 'ruleSchedule' });
    expect(resources(template)[handlerId].Properties?.Handler).toBe('index.handler');
    const mappings = ofType(template, 'AWS::Lambda::EventSourceMapping').filter(([, m]) =>
      JSON.stringify(m.Properties?.FunctionName).includes(handlerId),
    );
    expect(mappings).toEqual([]);
  });

  it('has a schedule group for the stage', () => {
    expect(group.Properties?.Name).toBe('patrol-dev-auto-check');
    expect(groupId).toBeTruthy();
  });

  it('has one role the scheduler assumes, from this account only, that may invoke the handler and write its dead letters, nothing else', () => {
    expect(invokeRoles).toHaveLength(1);
    const [[roleId, role]] = invokeRoles;
    expect(JSON.stringify(role.Properties?.AssumeRolePolicyDocument)).toContain('aws:SourceAccount');
    const statements = ofType(template, 'AWS::IAM::Policy')
      .filter(([, p]) => (p.Properties?.Roles ?? []).some((r: Json) => r?.Ref === roleId))
      .flatMap(([, p]) => p.Properties?.PolicyDocument.Statement as Statement[]);
    const invoke = statements.filter((s) => actionsOf(s).includes('lambda:InvokeFunction'));
    // The live alias only, not every version (`:*`).
    expect(invoke.map((s) => s.Resource)).toEqual([{ Ref: targetId }]);
    for (const s of statements.filter((st) => !invoke.includes(st))) {
      expect(actionsOf(s).every((a) => a.startsWith('sqs:'))).toBe(true);
      expect(JSON.stringify(s.Resource)).toContain('Queuesscheduledeliveriesdlq');
    }
  });

  it.each(['api', 'syncSchedules'])(
    'grants %s exactly the schedule actions on its group, and passing only that role to the scheduler',
    (name) => {
      const statements = schedulerStatements(statementsOfFunction(template, functionId(template, name)));
      const granted = statements.flatMap(actionsOf).filter((a) => a.startsWith('scheduler:') || a.startsWith('iam:'));
      expect(granted.sort()).toEqual([...RULE_SCHEDULE_ACTIONS, 'iam:PassRole'].sort());
      // Nothing wider: no wildcard over the scheduler's or IAM's actions.
      expect(statements.flatMap(actionsOf).filter((a) => /^(scheduler|iam):\*|^\*$/.test(a))).toEqual([]);
      const onSchedules = statements.find((s) => actionsOf(s).includes('scheduler:CreateSchedule'));
      expect(JSON.stringify(onSchedules?.Resource)).toContain('schedule/patrol-dev-auto-check/*');
      const pass = statements.find((s) => actionsOf(s).includes('iam:PassRole')) as Statement & { Condition: Json };
      expect(JSON.stringify(pass.Resource)).toContain(invokeRoles[0][0]);
      expect(pass.Condition).toEqual({ StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } });
    },
  );

  it('gives no other function any schedule action', () => {
    for (const def of LAMBDAS.filter((d) => !d.access.ruleSchedules && deploysInCloud(d))) {
      const statements = schedulerStatements(statementsOfFunction(template, functionId(template, def.name)));
      expect(statements, def.name).toEqual([]);
    }
  });

  it('tells the API where the schedules are and whom they invoke', () => {
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp(': api \\('),
      Environment: {
        Variables: Match.objectLike({
          AUTO_CHECK_SCHEDULE_GROUP: 'patrol-dev-auto-check',
          AUTO_CHECK_TARGET_ARN: { Ref: targetId },
          AUTO_CHECK_SCHEDULER_ROLE_ARN: { 'Fn::GetAtt': [invokeRoles[0][0], 'Arn'] },
        }),
      },
    });
  });
});
