import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { z } from 'zod';
import type { ListFields } from '../../../shared/listQuery.js';
import type { ApiTokenScopeValue } from '../../../shared/schemas/apiTokens.js';
import type { UserRoleValue } from '../../../shared/schemas/auth.js';
import type { RateLimitRule } from '../rateLimit.js';
import { MAX_TTL_MS } from './sharedAnswers.js';

/** Who is calling: set by the access step of the API handler for every user and super route. */
export interface AuthUser {
  id: number;
  username: string;
  nickname: string;
  role: UserRoleValue;
  /**
   * Set when the caller is an API token (issue 46): `id`/`username` are its creator's, `role` the
   * most its scope allows; the access step checks the scope against the route (tokenScope.ts).
   */
  token?: { id: number; name: string; scope: ApiTokenScopeValue };
}

/**
 * A machine caller known by its API key (e.g. a bank's webhook); `id` keys its rate limit. The
 * route gets the very object `verify` returned, so what verify looked up (the key's accounts) can
 * ride along in a wider type instead of being looked up again.
 */
export interface ApiKeyCaller {
  id: string;
}

/** The path segments of a route pattern. */
type Segments<P extends string> = P extends `${infer Head}/${infer Rest}` ? Head | Segments<Rest> : P;
type IdName<S> = S extends `:${infer N}` ? N : never;
type AnyName<S> = S extends `*${infer N}` ? N : never;

/**
 * A route's path parameters, from its pattern: `:id` is an id, parsed and checked by the router (a
 * positive integer, else 400), `*name` any one segment, decoded: `'/sites/:id/accounts'` gives
 * `{ id: number }`, so no handler parses a path parameter itself.
 */
export type ParamsOf<P extends string> = { [K in IdName<Segments<P>>]: number } & {
  [K in AnyName<Segments<P>>]: string;
};

export interface Request<Body = unknown, Params = Record<string, string | number>> {
  method: string;
  /** Path below /api/v1, e.g. /sites/12 */
  path: string;
  params: Params;
  query: Record<string, string>;
  /** What the route's `query` schema made of the query string (defaults, numbers); undefined without one. */
  queryData: unknown;
  headers: Record<string, string>;
  body: Body;
  /** Set for every user and super route. */
  user: AuthUser;
  /** Set for every api-key route: whom the key belongs to. */
  caller?: ApiKeyCaller;
  requestId: string;
  traceId: string;
  sourceIp: string;
  /** Adds a response header, e.g. the consumed read units of a list. */
  setHeader(name: string, value: string): void;
  /**
   * Names the user a public call turned out to be (a sign-in whose body names no username: a
   * passkey's, a ticket's second step), for its audit row. Absent where nothing is audited.
   */
  setActor?(user: { id: number; username: string }): void;
  event: APIGatewayProxyEventV2;
}

/**
 * An API key in `x-api-key`, checked by `verify` (the feature's store plugs in here), then
 * counted against `rateLimit` per caller, so one leaked or looping key cannot flood the API.
 */
export interface ApiKeyAccess {
  kind: 'api-key';
  verify: (key: string) => Promise<ApiKeyCaller | undefined>;
  /**
   * null: the route counts its callers itself, by who is behind the one key (Telegram's webhook, per
   * Telegram account: a budget of the key would let one sender spend everyone's).
   */
  rateLimit: RateLimitRule | null;
  /**
   * Refused keys counted per client address (`clientOf`, the address the API trusts): once the rule
   * is used up every call from that address answers 429 with Retry-After until its window ends, a
   * right key too, as logins are throttled. Guessing keys then costs the guesser the window.
   */
  failedAttempts?: { rule: RateLimitRule; clientOf: (req: Pick<Request, 'sourceIp' | 'headers'>) => string };
  /** The header the key comes in (lower case); `x-api-key` unless the caller's protocol names another. */
  header?: string;
}

export function apiKeyAccess(
  verify: (key: string) => Promise<ApiKeyCaller | undefined>,
  rateLimit: RateLimitRule | null,
  failedAttempts?: ApiKeyAccess['failedAttempts'],
  options: { header?: string } = {},
): ApiKeyAccess {
  return {
    kind: 'api-key',
    verify,
    rateLimit,
    ...(failedAttempts ? { failedAttempts } : {}),
    ...(options.header ? { header: options.header.toLowerCase() } : {}),
  };
}

/**
 * A per-user budget of a route (secret reveals, test messages): counted before the handler runs,
 * a call past it answers 429 `Too many {what}; try again in N s` with Retry-After, and is audited
 * like any refusal. Several routes that name the same rule share one budget.
 */
export interface RouteRateLimit {
  rule: RateLimitRule;
  /** What is counted, for the refusal: 'secret reveals'. */
  what: string;
}

/**
 * public: no token; user: any signed-in user; super: the super role, checked on the server;
 * api-key: a machine caller with its own key and rate limit.
 */
export type Access = 'public' | 'user' | 'super' | ApiKeyAccess;

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The lowest role a signed-in route admits: what the route declares (`role`), `access: 'super'`
 * meaning super, else by what the call does. A read is open to viewers, unless it is audited: a
 * read that declares an audit hands out a secret (a reveal), which takes an operator, as every
 * write does. Own-session writes (logout, own password) declare `role: 'viewer'`.
 */
export function lowestRole(route: Pick<Route, 'method' | 'access' | 'role' | 'audit'>): UserRoleValue {
  if (route.access === 'super') return 'super';
  if (route.role) return route.role;
  const reveal = route.audit !== undefined && route.audit !== false;
  return READ_METHODS.has(route.method) && !reveal ? 'viewer' : 'operator';
}

/**
 * How a route appears in the audit trail. Every call that writes is audited without saying so
 * (action `METHOD /pattern`, target from the path); a route declares this to name its action and
 * target, to audit a read that hands out a secret (`audit: {...}` on a GET), or `false` to opt out.
 */
export interface RouteAudit {
  /** e.g. 'site_account.pwd.reveal'. */
  action?: string;
  /** The record kind, e.g. 'site_account'; its id is the route's last path parameter. */
  target?: string;
}

export interface RouteOptions<S extends z.ZodType | undefined> {
  access?: Access;
  /** The lowest role this signed-in route admits, when it is not what `lowestRole` derives. */
  role?: UserRoleValue;
  audit?: RouteAudit | false;
  /** Validates and transforms the JSON body; failures become a 400 with the spec's messages. */
  body?: S;
  /** A tighter body limit than the API's MAX_BODY_BYTES (413 over it), e.g. a webhook's. */
  maxBodyBytes?: number;
  /** A list route's fields: it takes the list protocol's query and answers a page (the API document says so). */
  list?: ListFields;
  /** Validates the query string (a 400 with the schema's messages); the result is `req.queryData`. */
  query?: z.ZodType;
  /** A per-user budget, applied by the pipeline's rate-limit step (middlewares/rateLimit.ts). */
  rateLimit?: RouteRateLimit;
  /**
   * A GET whose answer is the same for every caller who may call it: kept this many ms in this
   * process and served again to callers of the same path and query meanwhile (sharedAnswers.ts).
   */
  sharedFor?: number;
  /**
   * Queries (as query-string parameters) whose answers a scheduled refresher computes every minute
   * and stores for every instance to serve, or a function that names them at each refresh
   * (keptAnswers.ts). Any other query's answer is stored for `sharedFor`. Needs `sharedFor`; no
   * path parameters.
   */
  refreshAhead?: RefreshAhead;
  /**
   * Only API tokens of this scope may call the route (GET /metrics: a scraper's credential, never a
   * person's session, which is refused with 403).
   */
  tokenScope?: ApiTokenScopeValue;
}

/** A route's kept queries (RouteOptions.refreshAhead), as query-string parameters. */
export type RefreshAhead = readonly Record<string, string>[] | (() => Promise<readonly Record<string, string>[]>);

export type RouteHandler<Body, Params = Record<string, string | number>> = (
  req: Request<Body, Params>,
) => unknown | Promise<unknown>;

export interface Route {
  method: string;
  /** The full pattern, prefixes included, e.g. /api/v1/sites/:id */
  pattern: string;
  access: Access;
  role?: UserRoleValue;
  body?: z.ZodType;
  audit?: RouteAudit | false;
  maxBodyBytes?: number;
  list?: ListFields;
  query?: z.ZodType;
  rateLimit?: RouteRateLimit;
  sharedFor?: number;
  refreshAhead?: RefreshAhead;
  tokenScope?: ApiTokenScopeValue;
  /** The `:name` parameters: ids, parsed to numbers by the router. */
  ids: string[];
  /** Raw (still percent-encoded) parameter values, or null if the path is not this route's. */
  match(path: string): Record<string, string> | null;
  handler: RouteHandler<unknown>;
}

/** Reply with something other than the standard envelope (e.g. a redirect or raw bytes). */
export class RawReply {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: Record<string, string> = {},
    readonly isBase64Encoded = false,
  ) {}
}

function compile(pattern: string): (path: string) => Record<string, string> | null {
  // `:id` matches one numeric segment: every id in the API is numeric, and it keeps
  // `/sites/accounts` from being read as a site id. `*name` matches any one segment.
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((seg) => {
      if (seg.startsWith(':')) {
        names.push(seg.slice(1));
        return '(\\d{1,15})';
      }
      if (seg.startsWith('*')) {
        names.push(seg.slice(1));
        return '([^/]+)';
      }
      return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  const re = new RegExp(`^${source}/?$`);
  return (path) => {
    const m = re.exec(path);
    if (!m) return null;
    return Object.fromEntries(names.map((n, i) => [n, m[i + 1]]));
  };
}

/**
 * Orders routes so that the most specific one is tried first, whatever the order they were
 * declared or included in: segment by segment, a literal beats `:id`, which beats `*name`.
 * `/check/results/bet-upload` thus wins over `/check/results/*kind` in any file order.
 */
function specificity(pattern: string): number[] {
  return pattern.split('/').map((seg) => (seg.startsWith('*') ? 2 : seg.startsWith(':') ? 1 : 0));
}
function bySpecificity(a: Route, b: Route): number {
  const sa = specificity(a.pattern);
  const sb = specificity(b.pattern);
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) if (sa[i] !== sb[i]) return sa[i] - sb[i];
  return 0;
}

/** The id parameters of a pattern (`:id`). */
const idsOf = (pattern: string) =>
  pattern
    .split('/')
    .filter((seg) => seg.startsWith(':'))
    .map((seg) => seg.slice(1));

function joinPath(prefix: string, pattern: string): string {
  const p = prefix.replace(/\/+$/, '');
  return pattern === '/' && p ? p : `${p}${pattern}`;
}

/** One router per feature; the API includes them all under /api/v1. */
export class Router {
  readonly routes: Route[] = [];

  private add<P extends string, S extends z.ZodType | undefined>(
    method: string,
    pattern: P,
    handler: RouteHandler<S extends z.ZodType ? z.output<S> : unknown, ParamsOf<P>>,
    options: RouteOptions<S> = {},
  ): this {
    if (
      options.sharedFor !== undefined &&
      (method !== 'GET' || !(options.sharedFor > 0 && options.sharedFor <= MAX_TTL_MS))
    )
      throw new Error(`${method} ${pattern}: sharedFor is for GET routes, 1 to ${MAX_TTL_MS} ms`);
    if (options.refreshAhead && (!options.sharedFor || idsOf(pattern).length > 0 || pattern.includes('*')))
      throw new Error(`${method} ${pattern}: refreshAhead is for shared routes without path parameters`);
    // A kept query the route's own schema refuses is a mistake in the declaration: fail at start.
    if (Array.isArray(options.refreshAhead)) for (const query of options.refreshAhead) options.query?.parse(query);
    return this.push({
      method,
      pattern,
      access: options.access ?? 'user',
      ...(options.role ? { role: options.role } : {}),
      body: options.body,
      ...(options.audit !== undefined ? { audit: options.audit } : {}),
      ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
      ...(options.list ? { list: options.list } : {}),
      ...(options.query ? { query: options.query } : {}),
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
      ...(options.sharedFor ? { sharedFor: options.sharedFor } : {}),
      ...(options.refreshAhead ? { refreshAhead: options.refreshAhead } : {}),
      ...(options.tokenScope ? { tokenScope: options.tokenScope } : {}),
      ids: idsOf(pattern),
      match: compile(pattern),
      handler: handler as RouteHandler<unknown>,
    });
  }

  private push(route: Route): this {
    this.routes.push(route);
    // Stable sort: among equally specific routes the declaration order still holds.
    this.routes.sort(bySpecificity);
    return this;
  }

  get<P extends string, S extends z.ZodType | undefined = undefined>(
    p: P,
    h: RouteHandler<S extends z.ZodType ? z.output<S> : unknown, ParamsOf<P>>,
    o?: RouteOptions<S>,
  ) {
    return this.add('GET', p, h, o);
  }
  post<P extends string, S extends z.ZodType | undefined = undefined>(
    p: P,
    h: RouteHandler<S extends z.ZodType ? z.output<S> : unknown, ParamsOf<P>>,
    o?: RouteOptions<S>,
  ) {
    return this.add('POST', p, h, o);
  }
  put<P extends string, S extends z.ZodType | undefined = undefined>(
    p: P,
    h: RouteHandler<S extends z.ZodType ? z.output<S> : unknown, ParamsOf<P>>,
    o?: RouteOptions<S>,
  ) {
    return this.add('PUT', p, h, o);
  }
  delete<P extends string, S extends z.ZodType | undefined = undefined>(
    p: P,
    h: RouteHandler<S extends z.ZodType ? z.output<S> : unknown, ParamsOf<P>>,
    o?: RouteOptions<S>,
  ) {
    return this.add('DELETE', p, h, o);
  }

  /** Mounts the routes of other routers under `prefix` (e.g. '/api/v1'); '' mounts them as they are. */
  include(prefix: string, ...routers: Router[]): this {
    for (const r of routers) {
      for (const route of r.routes) {
        const pattern = joinPath(prefix, route.pattern);
        this.push({ ...route, pattern, ids: idsOf(pattern), match: compile(pattern) });
      }
    }
    return this;
  }

  /** The route for a method and path, or why there is none (404 or 405). */
  find(method: string, path: string): { route: Route; params: Record<string, string> } | 'not-found' | 'bad-method' {
    let pathMatched = false;
    for (const route of this.routes) {
      const params = route.match(path);
      if (!params) continue;
      if (route.method === method || (method === 'HEAD' && route.method === 'GET')) return { route, params };
      pathMatched = true;
    }
    return pathMatched ? 'bad-method' : 'not-found';
  }
}
