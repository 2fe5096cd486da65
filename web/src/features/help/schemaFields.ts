// Field tables out of the API document's JSON Schemas: a row per property with its type, whether it
// is required and its description. A `oneOf` body (statement or balance) reads as one table whose
// rows merge the variants' properties (`type` is `1 | 2`).
import type { JsonSchema } from '@shared/bankWebhookDocs';

export interface FieldRow {
  name: string;
  type: string;
  /** Length bounds of a string, when it has any. */
  length: { min?: number; max?: number } | undefined;
  required: boolean;
  /** The default as JSON ('""'), when the field has one. */
  defaultValue: string | undefined;
  description: string;
}

const unique = <T>(xs: T[]) => [...new Set(xs)];

function typeLabels(s: JsonSchema): string[] {
  if (s.const !== undefined) return [JSON.stringify(s.const)];
  if (s.enum) return s.enum.map((v) => JSON.stringify(v));
  const members = s.anyOf ?? s.oneOf;
  if (members) return unique(members.flatMap(typeLabels));
  if (s.type === 'array') return [`${typeLabel(s.items ?? {})}[]`];
  if (Array.isArray(s.type)) return s.type;
  return [s.type ?? 'any'];
}

/** `string`, `1 | 2`, `"1" | "2"`, `object`… */
export function typeLabel(s: JsonSchema): string {
  return typeLabels(s).join(' | ');
}

function lengthOf(s: JsonSchema): FieldRow['length'] {
  const { minLength: min, maxLength: max } = s;
  return min === undefined && max === undefined ? undefined : { min, max };
}

/** The variants of a schema: its `oneOf` members, or the schema itself. */
export function variantsOf(s: JsonSchema): JsonSchema[] {
  return s.oneOf ?? [s];
}

/** One row per property of an object schema, or of all the variants of a `oneOf`. */
export function fieldRows(schema: JsonSchema): FieldRow[] {
  const variants = variantsOf(schema);
  const names = unique(variants.flatMap((v) => Object.keys(v.properties ?? {})));
  return names.map((name) => {
    const present = variants.filter((v) => v.properties?.[name]);
    const props = present.map((v) => v.properties?.[name] as JsonSchema);
    const first = props[0] as JsonSchema;
    return {
      name,
      type: unique(props.flatMap(typeLabels)).join(' | '),
      length: lengthOf(first),
      required: present.length === variants.length && present.every((v) => v.required?.includes(name)),
      defaultValue: first.default === undefined ? undefined : JSON.stringify(first.default),
      description: unique(props.map((p) => p.description ?? '').filter(Boolean)).join(' '),
    };
  });
}
