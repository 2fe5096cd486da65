import type { Template } from 'aws-cdk-lib/assertions';

// Small readers over a synthesized template, so tests can speak of "the api function's role"
// instead of logical-id hashes.

/** Template JSON: CloudFormation properties have no TypeScript types worth writing here. */
// biome-ignore lint/suspicious/noExplicitAny: untyped CloudFormation JSON
export type Json = any;

type Resource = { Type: string; Properties?: Record<string, Json>; DependsOn?: string | string[]; [k: string]: Json };

export function resources(template: Template): Record<string, Resource> {
  return template.toJSON().Resources as Record<string, Resource>;
}

export function ofType(template: Template, type: string): [string, Resource][] {
  return Object.entries(resources(template)).filter(([, r]) => r.Type === type);
}

/** The logical id of the one Lambda whose description names the registry entry. */
export function functionId(template: Template, name: string): string {
  const found = ofType(template, 'AWS::Lambda::Function').filter(([, r]) =>
    String(r.Properties?.Description ?? '').includes(`: ${name} (`),
  );
  if (found.length !== 1) throw new Error(`Expected one function '${name}', found ${found.length}`);
  return found[0][0];
}

export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

/** Every IAM statement attached to the execution role of a function. */
export function statementsOfFunction(template: Template, logicalId: string): Statement[] {
  const fn = resources(template)[logicalId];
  const roleId = fn.Properties?.Role?.['Fn::GetAtt']?.[0];
  return ofType(template, 'AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties?.Roles ?? []).some((r: Json) => r?.Ref === roleId))
    .flatMap(([, p]) => p.Properties?.PolicyDocument.Statement as Statement[]);
}

/** Does one Allow statement grant `action` on a resource that refers to `resourceId`? IAM wildcards honoured. */
export function allows(statements: Statement[], action: string, resourceId: string): boolean {
  return statements.some((s) => {
    if (s.Effect !== 'Allow') return false;
    const actions = Array.isArray(s.Action) ? s.Action : [s.Action];
    const actionMatches = actions.some((a) => new RegExp(`^${a.replace(/\*/g, '.*')}$`).test(action));
    return actionMatches && JSON.stringify(s.Resource).includes(`"${resourceId}"`);
  });
}

/** The logical id of the `live` alias of the function a registry entry deploys: what its callers invoke. */
export function liveAliasId(template: Template, name: string): string {
  const fnId = functionId(template, name);
  const found = ofType(template, 'AWS::Lambda::Alias').filter(
    ([, a]) => a.Properties?.FunctionName?.Ref === fnId && a.Properties?.Name === 'live',
  );
  if (found.length !== 1) throw new Error(`Expected one live alias of '${name}', found ${found.length}`);
  return found[0][0];
}

/** The event source mappings that invoke a registry entry's `live` alias (its ARN is built from the alias). */
export function mappingsOf(template: Template, name: string): Resource[] {
  const aliasId = liveAliasId(template, name);
  return ofType(template, 'AWS::Lambda::EventSourceMapping')
    .filter(([, m]) => JSON.stringify(m.Properties?.FunctionName).includes(`"${aliasId}"`))
    .map(([, m]) => m);
}
