// The list-query protocol (spec sections 2, 7, 9), one module for both sides:
// the web serializes a ListQuery into query-string params, the server parses them back
// against the field types of the resource it lists.
//
// Wire format (all values are strings in the query string):
//   page=1                     default 1
//   page_size=20               default 20; 0 means all rows
//   sort={"created_at":"desc"} JSON object, field -> 'asc' | 'desc', first key sorts first
//   keyword=abc                case-insensitive substring, at least 3 chars
//   keywordField=name,url      the columns the keyword searches (comma separated)
//   <field>=...                per-column filters, by the field's type:
//     text      abc            case-insensitive substring
//     boolean   true | false   absent = either (tri-state)
//     enum      1,2            any of the values
//     number    >=-5           '{condition}-{value}', condition one of = != < <= > >=
//     date/datetime/time and their ranges
//               start,end      millisecond stamps (time: ms since midnight); either side may be empty

export const LIST_DEFAULTS = { page: 1, pageSize: 20 } as const;
export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100, 0] as const;
export const KEYWORD_MIN_LENGTH = 3;
export const RESERVED_PARAMS = ['page', 'page_size', 'sort', 'keyword', 'keywordField'] as const;

export type FieldType = 'text' | 'boolean' | 'enum' | 'number' | 'date' | 'datetime' | 'time';

/**
 * How the server serves a sort or filter on a field (docs/data-model.md "List shapes"):
 * - `key`: by an index key, at O(page) cost whatever the table's size, with an exact count
 *   (equality on a slot field, `created_at` ranges, `created_at`/`id` order);
 * - `bounded`: by reading at most the entity's read budget of rows (newest first); past the
 *   budget the reply says `total_exact: false` and how many rows it `searched`.
 * Absent: not offered; the server refuses it with a 400.
 */
export type Capability = 'key' | 'bounded';

/** One field of a list: its type and what a list may do with it. The web derives its offers from this. */
export interface FieldSpec {
  readonly type: FieldType;
  readonly sort?: Capability;
  readonly filter?: Capability;
  /** Offered to the keyword search (and text filters match case-insensitively). */
  readonly search?: boolean;
  /** An enum field's values and labels, for the filter's options. */
  readonly options?: ReadonlyArray<{ value: number | string; label: string }>;
}

/**
 * A resource's listable fields: the contract both sides share. A bare FieldType is the legacy
 * form (filterable and sortable within the budget, text searchable); entities declare FieldSpecs.
 */
export type ListFields = Readonly<Record<string, FieldType | FieldSpec>>;

/** The FieldSpec of a declared field (bare types read as "everything, bounded"). */
export function fieldSpec(declared: FieldType | FieldSpec): FieldSpec {
  if (typeof declared !== 'string') return declared;
  return { type: declared, sort: 'bounded', filter: 'bounded', search: declared === 'text' };
}

export type NumberOp = '=' | '!=' | '<' | '<=' | '>' | '>=';
export const NUMBER_OPS: readonly NumberOp[] = ['=', '!=', '<', '<=', '>', '>='];

export type Filter =
  | { kind: 'text'; value: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'enum'; values: (number | string)[] }
  | { kind: 'number'; op: NumberOp; value: number }
  | { kind: 'range'; start?: number; end?: number };

export type SortOrder = 'asc' | 'desc';
export interface SortBy {
  field: string;
  order: SortOrder;
}

export interface ListQuery {
  page: number;
  page_size: number;
  sort: SortBy[];
  keyword?: string;
  keywordField: string[];
  filters: Record<string, Filter>;
  /**
   * Not part of what is asked, only how to read it: the caller jumped to this page (the
   * `x-list-jump` header), so no cursor of it is looked for. Never serialized.
   */
  jump?: boolean;
}

export interface ListResult<T> {
  result: T[];
  total_count: number;
  page_size: number;
  page: number;
  /**
   * Present and false when a bounded read (a filter, search or sort no index serves) reached its
   * budget: total_count then counts the matches among the `searched` newest rows only.
   */
  total_exact?: false;
  /** Rows read to answer a bounded list that reached its budget. */
  searched?: number;
}

/** Most rows page_size 0 ("All") returns; total_count still says how many match. */
export const PAGE_ALL_CAP = 1000;

/** Thrown by the parser; the server turns it into a 400 with the field in `extra`. */
export class ListQueryError extends Error {
  override name = 'ListQueryError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export function emptyListQuery(overrides: Partial<ListQuery> = {}): ListQuery {
  return {
    page: LIST_DEFAULTS.page,
    page_size: LIST_DEFAULTS.pageSize,
    sort: [],
    keywordField: [],
    filters: {},
    ...overrides,
  };
}

type Params = Record<string, string | string[] | undefined> | URLSearchParams;

function read(params: Params, key: string): string | undefined {
  if (params instanceof URLSearchParams) return params.get(key) ?? undefined;
  const v = params[key];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

function keysOf(params: Params): string[] {
  return params instanceof URLSearchParams ? [...new Set(params.keys())] : Object.keys(params);
}

function parseWholeNumber(field: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ListQueryError(field, `${field} must be a whole number from ${min}`);
  return n;
}

function parseStamp(field: string, raw: string): number | undefined {
  if (raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new ListQueryError(field, `${field} must be 'start,end' in millisecond stamps`);
  return n;
}

export function parseFilter(field: string, type: FieldType, raw: string): Filter | undefined {
  if (raw === '') return undefined;
  switch (type) {
    case 'text':
      return { kind: 'text', value: raw };
    case 'boolean':
      if (raw === 'true' || raw === '1') return { kind: 'boolean', value: true };
      if (raw === 'false' || raw === '0') return { kind: 'boolean', value: false };
      throw new ListQueryError(field, `${field} must be true or false`);
    case 'enum':
      return {
        kind: 'enum',
        values: raw
          .split(',')
          .filter((v) => v !== '')
          .map((v) => (/^-?\d+$/.test(v) ? Number(v) : v)),
      };
    case 'number': {
      const m = /^(=|!=|<=|>=|<|>)-(.+)$/.exec(raw);
      const value = m ? Number(m[2]) : Number.NaN;
      if (!m || !Number.isFinite(value)) {
        throw new ListQueryError(field, `${field} must be '{condition}-{value}' with one of = != < <= > >=`);
      }
      return { kind: 'number', op: m[1] as NumberOp, value };
    }
    case 'date':
    case 'datetime':
    case 'time': {
      const [a = '', b = ''] = raw.split(',');
      const start = parseStamp(field, a);
      const end = parseStamp(field, b);
      if (start !== undefined && end !== undefined && start > end) {
        throw new ListQueryError(field, `${field}: start is after end`);
      }
      return start === undefined && end === undefined ? undefined : { kind: 'range', start, end };
    }
  }
}

/**
 * Parses query-string params against a resource's fields. Unknown filter or sort fields
 * are refused rather than ignored, so a typo never silently returns every row.
 */
export function parseListQuery(params: Params, fields: ListFields): ListQuery {
  const page = parseWholeNumber('page', read(params, 'page'), LIST_DEFAULTS.page, 1);
  const page_size = parseWholeNumber('page_size', read(params, 'page_size'), LIST_DEFAULTS.pageSize, 0);

  const sort: SortBy[] = [];
  const rawSort = read(params, 'sort');
  if (rawSort) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawSort);
    } catch {
      throw new ListQueryError('sort', 'sort must be JSON such as {"created_at":"desc"}');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new ListQueryError('sort', 'sort must be JSON such as {"created_at":"desc"}');
    }
    for (const [field, order] of Object.entries(parsed)) {
      if (!Object.hasOwn(fields, field) || !fieldSpec(fields[field]).sort) {
        throw new ListQueryError('sort', `cannot sort by ${field}`);
      }
      if (order !== 'asc' && order !== 'desc') throw new ListQueryError('sort', `sort order must be asc or desc`);
      sort.push({ field, order });
    }
  }

  const rawKeyword = read(params, 'keyword')?.trim();
  const keywordField = (read(params, 'keywordField') ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  for (const f of keywordField) {
    const spec = Object.hasOwn(fields, f) ? fieldSpec(fields[f]) : undefined;
    if (spec?.type !== 'text' || !spec.search) throw new ListQueryError('keywordField', `cannot search ${f}`);
  }
  if (rawKeyword) {
    if (rawKeyword.length < KEYWORD_MIN_LENGTH) throw new ListQueryError('keyword', 'At least 3 chars');
    if (keywordField.length === 0) throw new ListQueryError('keywordField', 'At least 1 search field');
  }

  const filters: Record<string, Filter> = {};
  for (const key of keysOf(params)) {
    if ((RESERVED_PARAMS as readonly string[]).includes(key)) continue;
    // Own names only: `constructor` or `__proto__` must not pass as a field through the prototype.
    const spec = Object.hasOwn(fields, key) ? fieldSpec(fields[key]) : undefined;
    if (!spec?.filter) throw new ListQueryError(key, `cannot filter by ${key}`);
    const raw = read(params, key);
    const filter = raw === undefined ? undefined : parseFilter(key, spec.type, raw);
    if (filter) filters[key] = filter;
  }

  return { page, page_size, sort, keyword: rawKeyword || undefined, keywordField, filters };
}

export function serializeFilter(filter: Filter): string {
  switch (filter.kind) {
    case 'text':
      return filter.value;
    case 'boolean':
      return String(filter.value);
    case 'enum':
      return filter.values.join(',');
    case 'number':
      return `${filter.op}-${filter.value}`;
    case 'range':
      return `${filter.start ?? ''},${filter.end ?? ''}`;
  }
}

/** The inverse of parseListQuery; defaults are written out so the query key is explicit. */
export function serializeListQuery(query: ListQuery): Record<string, string> {
  const out: Record<string, string> = { page: String(query.page), page_size: String(query.page_size) };
  if (query.sort.length) out.sort = JSON.stringify(Object.fromEntries(query.sort.map((s) => [s.field, s.order])));
  if (query.keyword) {
    out.keyword = query.keyword;
    out.keywordField = query.keywordField.join(',');
  }
  for (const [field, filter] of Object.entries(query.filters)) {
    const value = serializeFilter(filter);
    if (value !== '' && value !== ',') out[field] = value;
  }
  return out;
}

export function toSearchParams(query: ListQuery): URLSearchParams {
  return new URLSearchParams(serializeListQuery(query));
}

/** Does a value pass a filter? Used by the server's in-memory stage and by tests. */
export function matchesFilter(value: unknown, filter: Filter): boolean {
  switch (filter.kind) {
    case 'text':
      return typeof value === 'string' && value.toLowerCase().includes(filter.value.toLowerCase());
    case 'boolean':
      return Boolean(value) === filter.value;
    case 'enum':
      return filter.values.some((v) => v === value || String(v) === String(value));
    case 'number': {
      if (typeof value !== 'number') return false;
      const v = filter.value;
      switch (filter.op) {
        case '=':
          return value === v;
        case '!=':
          return value !== v;
        case '<':
          return value < v;
        case '<=':
          return value <= v;
        case '>':
          return value > v;
        case '>=':
          return value >= v;
      }
      return false;
    }
    case 'range':
      if (typeof value !== 'number') return false;
      return (filter.start === undefined || value >= filter.start) && (filter.end === undefined || value <= filter.end);
  }
}
