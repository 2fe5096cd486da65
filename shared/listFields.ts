// Builders for an entity's row declaration: each field once, with its type, its value type (enum
// value types come from shared/enums.ts) and what a list may do with it (shared/listQuery.ts
// FieldSpec). A field declared without capabilities is shown only: every list refuses to sort,
// filter or search it. The API row type (`RowOf`) and the stored shape (`StoredOf`, plus what only
// storage keeps) derive from the declaration, the way electrodb derives item types from a model,
// so adding a field is one edit. docs/architecture.md "Adding a feature" shows the shape.

import type { EnumDef, EnumValue } from './enums.js';
import type { Capability, FieldSpec } from './listQuery.js';

interface Caps {
  sort?: Capability;
  filter?: Capability;
  search?: boolean;
}

/** A FieldSpec that remembers its value type (a phantom: never present at run time). */
export interface TypedField<V> extends FieldSpec {
  readonly __value?: V;
}

export const field = {
  text: <V extends string | null = string>(caps: Caps = {}): TypedField<V> => ({ type: 'text', ...caps }),
  number: <V extends number | null = number>(caps: Caps = {}): TypedField<V> => ({ type: 'number', ...caps }),
  boolean: (caps: Caps = {}): TypedField<boolean> => ({ type: 'boolean', ...caps }),
  datetime: <V extends number | null = number>(caps: Caps = {}): TypedField<V> => ({ type: 'datetime', ...caps }),
  enum: <E extends EnumDef<string, number | string>>(values: E, caps: Caps = {}): TypedField<EnumValue<E>> => ({
    type: 'enum',
    options: values.options,
    ...caps,
  }),
  /** A value a list shows but never sorts, filters or searches (JSON, nested objects). */
  shown: <V>(): TypedField<V> => ({ type: 'text' }),
};

/** The row a declaration describes: `RowOf<typeof siteListFields>`. */
export type RowOf<D> = { -readonly [K in keyof D]: D[K] extends TypedField<infer V> ? V : never };

/** Key-order fields every entity has: `id` and `created_at` sort by key, a `created_at` range is a key condition. */
export const keyOrderFields = {
  id: field.number({ sort: 'key', filter: 'bounded' }),
  created_at: field.datetime({ sort: 'key', filter: 'key' }),
};

/**
 * The shape a store keeps: the declared row plus the fields only storage has, declared beside the
 * entity in its feature's store (ciphertexts such as `pwd_enc`, the ids a reply turns into names,
 * internal flags). `updated_at` is stamped by the repository on every write.
 *
 *   export type StoredSiteAccount = StoredOf<typeof siteAccountListFields, { pwd_enc: string }>;
 */
export type StoredOf<D, Extra extends object = Record<never, never>> = RowOf<D> & Extra & { updated_at?: number };

/**
 * The declared fields of a stored record, as the row a reply shows: what only storage keeps
 * (ciphertexts, keys, internal state) is left out without naming it, so a new declared field
 * reaches the reply with no copy to add.
 */
export function declaredRow<D extends object>(
  fields: D,
  stored: RowOf<D> & { updated_at?: number },
): RowOf<D> & {
  updated_at?: number;
} {
  const row: Record<string, unknown> = { updated_at: stored.updated_at };
  for (const key of Object.keys(fields)) row[key] = (stored as Record<string, unknown>)[key];
  return row as RowOf<D> & { updated_at?: number };
}
