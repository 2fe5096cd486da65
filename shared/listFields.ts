// Builders for a list declaration: each field once, with its type, its value type (enum value
// types come from shared/enums.ts) and what a list may do with it (shared/listQuery.ts FieldSpec).
// The API row type and the stored shape derive from the declaration (`RowOf`), the way electrodb
// derives item types from a model, so a column's type is written in one place.

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
