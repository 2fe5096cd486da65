// Expression building for every DynamoDB call lib/db makes: placeholders for names and values, and
// conditions declared as data (what a keyed record's conditional write expects), rendered here.

import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';

/** A stored item as the SDK's document client reads and writes it. */
export type Item = Record<string, NativeAttributeValue>;

/**
 * Collects `#n`/`:v` placeholders so every expression is safe from reserved words
 * (`name`, `status`, `result`...) and from values that look like syntax.
 */
export class ExpressionBuilder {
  readonly names: Record<string, string> = {};
  readonly values: Record<string, NativeAttributeValue> = {};
  private readonly byAttr = new Map<string, string>();

  name(attr: string): string {
    let key = this.byAttr.get(attr);
    if (!key) {
      key = `#n${this.byAttr.size}`;
      this.byAttr.set(attr, key);
      this.names[key] = attr;
    }
    return key;
  }

  value(v: NativeAttributeValue): string {
    const key = `:v${Object.keys(this.values).length}`;
    this.values[key] = v;
    return key;
  }

  /** DynamoDB refuses empty maps, so absent means "none". */
  attributes(): {
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, NativeAttributeValue>;
  } {
    return {
      ExpressionAttributeNames: Object.keys(this.names).length ? this.names : undefined,
      ExpressionAttributeValues: Object.keys(this.values).length ? this.values : undefined,
    };
  }
}

type Comparison = '=' | '<>' | '<' | '<=' | '>' | '>=';

/**
 * What a conditional write of a keyed record expects, as data: features state the rule
 * (`when.or(when.missing(), when.is('lease_until', '<', now))`) and never write expression syntax.
 * A comparison with an attribute the record lacks is false, as in DynamoDB.
 */
export type RecordCondition =
  | { missing: true }
  | { exists: true }
  | { absent: string }
  | { present: string }
  | { attr: string; op: Comparison; value: NativeAttributeValue }
  | { contains: string; value: NativeAttributeValue }
  | { and: RecordCondition[] }
  | { or: RecordCondition[] };

export const when = {
  /** No record under the key. */
  missing: (): RecordCondition => ({ missing: true }),
  /** A record under the key. */
  exists: (): RecordCondition => ({ exists: true }),
  /** The record lacks this attribute (or is missing). */
  absent: (attr: string): RecordCondition => ({ absent: attr }),
  /** The record has this attribute. */
  present: (attr: string): RecordCondition => ({ present: attr }),
  is: (attr: string, op: Comparison, value: NativeAttributeValue): RecordCondition => ({ attr, op, value }),
  /** A set (or list, or string) attribute holds this member. */
  contains: (attr: string, value: NativeAttributeValue): RecordCondition => ({ contains: attr, value }),
  and: (...all: RecordCondition[]): RecordCondition => ({ and: all }),
  or: (...any: RecordCondition[]): RecordCondition => ({ or: any }),
};

/** The condition expression of a declared condition, its names and values collected in `b`. */
export function conditionExpression(b: ExpressionBuilder, c: RecordCondition): string {
  if ('missing' in c) return `attribute_not_exists(${b.name('pk')})`;
  if ('exists' in c) return `attribute_exists(${b.name('pk')})`;
  if ('absent' in c) return `attribute_not_exists(${b.name(c.absent)})`;
  if ('present' in c) return `attribute_exists(${b.name(c.present)})`;
  if ('contains' in c) return `contains(${b.name(c.contains)}, ${b.value(c.value)})`;
  if ('and' in c) return `(${c.and.map((p) => conditionExpression(b, p)).join(' AND ')})`;
  if ('or' in c) return `(${c.or.map((p) => conditionExpression(b, p)).join(' OR ')})`;
  return `${b.name(c.attr)} ${c.op} ${b.value(c.value)}`;
}
