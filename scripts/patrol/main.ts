// npm run patrol -- export > patrol.yaml
// npm run patrol -- apply -f patrol.yaml [--dry-run] [--prune] [--passwords]
//
// Sites, their accounts, auto-check rules, maintenance windows, bank accounts' monitor settings and
// alert rules as code (issue 46 item 4, docs/automation.md), through the public API: PATROL_URL and
// PATROL_TOKEN (an API token; `operate` to apply, `read` is enough to export and to dry-run).
// Exit 0 when done, 1 when the API refused a change, 2 when the file or the call is wrong (nothing changed).
import { parseArgs } from 'node:util';
import { parseDocument, stringify } from 'yaml';
import { PATROL_SCHEMA_PATH, PatrolFile } from '../../shared/schemas/patrolFile.js';
import { applyChanges, neededVariables } from './apply.js';
import { ApiError, patrolApi } from './client.js';
import { duplicateKeys } from './model.js';
import { countLine, describeChange, planChanges } from './plan.js';
import { readStack, type StackState } from './state.js';

export interface Io {
  env: Readonly<Record<string, string | undefined>>;
  out(line: string): void;
  err(line: string): void;
  readFile(path: string): Promise<string>;
  fetch?: typeof fetch;
}

class UsageError extends Error {}

const USAGE = `Usage:
  npm run patrol -- export > patrol.yaml
  npm run patrol -- apply -f patrol.yaml [--dry-run] [--prune] [--passwords]
Environment: PATROL_URL (the console's address), PATROL_TOKEN (an API token: operate to apply, read to export)`;

export function toYaml(file: PatrolFile, schemaUrl: string): string {
  return `# yaml-language-server: $schema=${schemaUrl}\n${stringify(file, { lineWidth: 0, version: '1.1' })}`;
}

/** The file, checked: YAML, the schema, keys unique. Each problem on a line of its own. */
export function parsePatrolFile(text: string): PatrolFile {
  const doc = parseDocument(text);
  if (doc.errors.length) throw new UsageError(doc.errors.map((e) => `YAML: ${e.message}`).join('\n'));
  const parsed = PatrolFile.safeParse(doc.toJS());
  if (!parsed.success)
    throw new UsageError(parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('\n'));
  const duplicates = duplicateKeys(parsed.data);
  if (duplicates.length) throw new UsageError(duplicates.join('\n'));
  return parsed.data;
}

/** References the apply cannot resolve: a site or bank account neither in the file nor kept on the stack. */
export function unresolvedReferences(file: PatrolFile, stack: PatrolFile, prune: boolean): string[] {
  const known = (section: 'sites' | 'bank_accounts', keyOf: (e: never) => string) => {
    const inFile = file[section]?.map((e) => keyOf(e as never));
    const onStack = (stack[section] ?? []).map((e) => keyOf(e as never));
    return new Set(inFile ? [...inFile, ...(prune ? [] : onStack)] : onStack);
  };
  const sites = known('sites', (s: { name: string }) => s.name);
  const banks = known('bank_accounts', (b: { bank: string; user: string }) => `${b.bank}/${b.user}`);
  const problems: string[] = [];
  for (const [kind, entries] of [
    ['auto-check rule', file.auto_check_rules ?? []],
    ['maintenance window', file.maintenance_windows ?? []],
  ] as const)
    for (const e of entries)
      for (const site of e.sites === 'all' ? [] : e.sites)
        if (!sites.has(site))
          problems.push(`${kind} "${e.name}": site "${site}" is neither in the file nor on the stack`);
  for (const a of file.alert_rules ?? [])
    if (a.scope.kind === 'accounts')
      for (const key of a.scope.accounts)
        if (!banks.has(key))
          problems.push(`alert rule "${a.name}": bank account "${key}" is neither in the file nor on the stack`);
  return problems;
}

function parseCommand(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        file: { type: 'string', short: 'f' },
        'dry-run': { type: 'boolean' },
        prune: { type: 'boolean' },
        passwords: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    // node:util's own words: "Unknown option '--prnue'".
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
}

function connect(io: Io) {
  const url = io.env.PATROL_URL;
  const token = io.env.PATROL_TOKEN;
  if (!url || !token) throw new UsageError(`PATROL_URL and PATROL_TOKEN must be set\n${USAGE}`);
  return patrolApi(url, token, io.fetch);
}

function warn(io: Io, state: StackState) {
  for (const w of state.warnings) io.err(`warning: ${w}`);
}

export async function main(argv: string[], io: Io): Promise<number> {
  try {
    const { positionals, values } = parseCommand(argv);
    const [command] = positionals;
    if (values.help || !command) {
      io.out(USAGE);
      return values.help ? 0 : 2;
    }
    if (command === 'export') {
      const api = connect(io);
      const state = await readStack(api);
      warn(io, state);
      io.out(toYaml(state.file, `${api.base}${PATROL_SCHEMA_PATH}`).trimEnd());
      return 0;
    }
    if (command !== 'apply') throw new UsageError(`Unknown command ${command}\n${USAGE}`);
    if (!values.file) throw new UsageError(`apply needs -f FILE\n${USAGE}`);
    let text: string;
    try {
      text = await io.readFile(values.file);
    } catch (error) {
      throw new UsageError(`Cannot read ${values.file}: ${(error as Error).message}`);
    }
    const file = parsePatrolFile(text);
    const api = connect(io);
    const state = await readStack(api);
    warn(io, state);
    const references = unresolvedReferences(file, state.file, Boolean(values.prune));
    if (references.length) throw new UsageError(references.join('\n'));
    const plan = planChanges(file, state, { prune: values.prune, passwords: values.passwords });
    const missing = neededVariables(plan.changes).filter((name) => !io.env[name]);
    // Before any change: an apply that stopped half-way for a password would leave the stack half-made.
    if (missing.length) throw new UsageError(`Environment variables not set: ${missing.join(', ')}`);
    if (values['dry-run']) {
      for (const c of plan.changes) io.out(describeChange(c));
      io.out(countLine(plan));
      return 0;
    }
    const { failed } = await applyChanges(plan.changes, {
      api,
      ids: state.ids,
      env: io.env,
      log: io.out,
      error: io.err,
    });
    io.out(countLine(plan, failed));
    return failed.length ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError) io.err(error.message);
    else if (error instanceof ApiError && error.status === 0) io.err(`Cannot reach the API: ${error.message}`);
    else if (error instanceof ApiError) io.err(`The API refused: ${error.describe()}`);
    else io.err(`patrol: ${(error as Error).stack ?? error}`);
    return 2;
  }
}
