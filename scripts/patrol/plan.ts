// The diff between the file and the stack: one change per entry, in the order an apply makes them
// (creates and updates kind by kind, references first; then deletes, the other way round).
// Pure: the dry run prints it, the apply carries it out (apply.ts), the unit tests read it.
import type { PatrolFile } from '../../shared/schemas/patrolFile.js';
import {
  type AnyEntry,
  type AccountEntry,
  changedFields,
  DELETABLE,
  entriesOf,
  isDisabled,
  KINDS,
  type Kind,
  sitesListingAccounts,
} from './model.js';

export type Action = 'create' | 'update' | 'delete' | 'unchanged';

export interface Change {
  action: Action;
  kind: Kind;
  key: string;
  /** An update's fields, in the entry's order. */
  fields: string[];
  /** The file's entry (normal form); a delete's is the stack's. */
  entry: AnyEntry;
  /** The stack's entry, for an update (fields the file leaves out keep its values). */
  current?: AnyEntry;
  /** A delete of a kind the API keeps (accounts): it is disabled instead. */
  disableOnly?: boolean;
}

export interface PlanOptions {
  /** Delete (or disable) what the file's sections leave out. */
  prune?: boolean;
  /** Also write every account's password from the environment (the API never shows one, so no diff sees a change). */
  passwords?: boolean;
}

/**
 * The stack's side: its entries, and `hidden` ones the export leaves out (a one-off window that has
 * ended, a rule whose every site was deleted): an apply matches them by key, and never prunes them.
 */
export interface StackSide {
  file: PatrolFile;
  hidden?: PatrolFile;
}

export interface Plan {
  changes: Change[];
  /** Entries of the stack the file's sections leave out, kept because --prune was not given. */
  kept: number;
}

const HAS_PASSWORD: readonly Kind[] = ['site account', 'bank account'];

export function planChanges(file: PatrolFile, stack: StackSide, opts: PlanOptions = {}): Plan {
  const desired = entriesOf(file);
  const current = entriesOf(stack.file);
  const hidden = stack.hidden ? entriesOf(stack.hidden) : new Map<Kind, Map<string, AnyEntry>>();
  for (const [kind, entries] of hidden) {
    const map = current.get(kind) ?? new Map<string, AnyEntry>();
    for (const [key, entry] of entries) if (!map.has(key)) map.set(key, entry);
    current.set(kind, map);
  }
  const listing = sitesListingAccounts(file);
  const changes: Change[] = [];
  const deletes: Change[] = [];
  let kept = 0;
  for (const kind of KINDS) {
    const want = desired.get(kind);
    if (!want) continue; // the file leaves the section out: left alone
    const have = current.get(kind) ?? new Map<string, AnyEntry>();
    for (const [key, entry] of want) {
      const now = have.get(key);
      if (!now) {
        changes.push({ action: 'create', kind, key, fields: [], entry });
        continue;
      }
      const fields = changedFields(kind, entry, now);
      if (opts.passwords && HAS_PASSWORD.includes(kind)) fields.push('pwd');
      changes.push({ action: fields.length ? 'update' : 'unchanged', kind, key, fields, entry, current: now });
    }
    for (const [key, entry] of have) {
      if (want.has(key) || hidden.get(kind)?.has(key)) continue;
      if (kind === 'site account') {
        const site = (entry as AccountEntry).site;
        // A site the file does not list accounts of keeps them; a site being deleted takes them along.
        if (!listing.has(site)) continue;
      }
      if (!opts.prune) {
        kept++;
        continue;
      }
      if (DELETABLE[kind]) deletes.push({ action: 'delete', kind, key, fields: [], entry });
      else if (!isDisabled(kind, entry))
        deletes.push({ action: 'delete', kind, key, fields: [], entry, disableOnly: true });
    }
  }
  return { changes: [...changes, ...deletes.reverse()], kept };
}

export function describeChange(c: Change): string {
  const what = `${c.action} ${c.kind} "${c.key}"`;
  if (c.action === 'update') return `${what}: ${c.fields.join(', ')}`;
  if (c.disableOnly) return `${what} (disabled: the API keeps ${c.kind}s)`;
  return what;
}

/** The last line: the dry run's counts, or (with the failed changes) what an apply did. */
export function countLine(plan: Plan, failed?: readonly Change[]): string {
  const n = (a: Action) => plan.changes.filter((c) => c.action === a && !failed?.includes(c)).length;
  const parts = failed
    ? [`${n('create')} created`, `${n('update')} updated`, `${n('delete')} deleted`, `${n('unchanged')} unchanged`]
    : [
        `${n('create')} to create`,
        `${n('update')} to update`,
        `${n('delete')} to delete`,
        `${n('unchanged')} unchanged`,
      ];
  if (failed?.length) parts.push(`${failed.length} failed`);
  const head = parts.join(', ');
  return plan.kept ? `${head}; ${plan.kept} not in the file, kept (--prune deletes them)` : head;
}
