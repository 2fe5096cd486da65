import type { Template } from 'aws-cdk-lib/assertions';

// Small readers over a synthesized template, so tests can speak of "the api function's role"
// instead of logical-id hashes.

type Resource = { Type: string; Properties?: Record<string, any>; DependsOn?: string | string[]; [k: string]: any };

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
    .filter(([, p]) => (p.Properties?.Roles ?? []).some((r: any) => r?.Ref === roleId))
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

/** Logical ids a resource refers to (Ref, Fn::GetAtt, DependsOn, ${X} in Fn::Sub). */
function referencesOf(resource: Resource, ids: Set<string>): Set<string> {
  const out = new Set<string>();
  const deps = resource.DependsOn === undefined ? [] : [resource.DependsOn].flat();
  for (const d of deps) out.add(d);
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === 'Ref' && typeof v === 'string' && ids.has(v)) out.add(v);
      else if (k === 'Fn::GetAtt' && Array.isArray(v) && ids.has(v[0])) out.add(v[0]);
      else if (k === 'Fn::Sub') {
        const text = Array.isArray(v) ? v[0] : v;
        for (const m of String(text).matchAll(/\$\{([A-Za-z0-9]+)(\.[^}]*)?\}/g)) if (ids.has(m[1])) out.add(m[1]);
        walk(v);
      } else walk(v);
    }
  };
  walk(resource.Properties);
  return out;
}

/** A dependency cycle CloudFormation would refuse to deploy, as a list of logical ids; [] when none. */
export function findCycle(template: Template): string[] {
  const all = resources(template);
  const ids = new Set(Object.keys(all));
  const edges = new Map([...ids].map((id) => [id, referencesOf(all[id], ids)]));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] => {
    if (state.get(id) === 'done') return [];
    if (state.get(id) === 'open') return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, 'open');
    stack.push(id);
    for (const next of edges.get(id) ?? []) {
      const cycle = visit(next);
      if (cycle.length) return cycle;
    }
    stack.pop();
    state.set(id, 'done');
    return [];
  };
  for (const id of ids) {
    const cycle = visit(id);
    if (cycle.length) return cycle;
  }
  return [];
}
