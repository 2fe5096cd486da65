import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { z } from 'zod';
import type { UserRoleValue } from '../../../shared/schemas/auth.js';

/** Who is calling: set by the auth step of the API handler for every non-public route. */
export interface AuthUser {
  id: number;
  username: string;
  nickname: string;
  role: UserRoleValue;
}

export interface Request<Body = unknown> {
  method: string;
  /** Path below /api/v1, e.g. /sites/12 */
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: Body;
  /** Set for every route that is not public. */
  user: AuthUser;
  requestId: string;
  traceId: string;
  sourceIp: string;
  /** Adds a response header, e.g. the consumed read units of a list. */
  setHeader(name: string, value: string): void;
  event: APIGatewayProxyEventV2;
}

/** public: no token; user: any signed-in user; super: the super role, checked on the server. */
export type Access = 'public' | 'user' | 'super';

export interface RouteOptions<S extends z.ZodType | undefined> {
  access?: Access;
  /** Validates and transforms the JSON body; failures become a 400 with the spec's messages. */
  body?: S;
}

export type RouteHandler<Body> = (req: Request<Body>) => unknown | Promise<unknown>;

export interface Route {
  method: string;
  pattern: string;
  access: Access;
  body?: z.ZodType;
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
  // `/sites/accounts` from being read as a site id.
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
    return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
  };
}

/** One router per feature; the API handler includes them all under /api/v1. */
export class Router {
  readonly routes: Route[] = [];

  private add<S extends z.ZodType | undefined>(
    method: string,
    pattern: string,
    handler: RouteHandler<S extends z.ZodType ? z.output<S> : unknown>,
    options: RouteOptions<S> = {},
  ): this {
    this.routes.push({
      method,
      pattern,
      access: options.access ?? 'user',
      body: options.body,
      match: compile(pattern),
      handler: handler as RouteHandler<unknown>,
    });
    return this;
  }

  get<S extends z.ZodType | undefined = undefined>(
    p: string,
    h: RouteHandler<S extends z.ZodType ? z.output<S> : unknown>,
    o?: RouteOptions<S>,
  ) {
    return this.add('GET', p, h, o);
  }
  post<S extends z.ZodType | undefined = undefined>(
    p: string,
    h: RouteHandler<S extends z.ZodType ? z.output<S> : unknown>,
    o?: RouteOptions<S>,
  ) {
    return this.add('POST', p, h, o);
  }
  put<S extends z.ZodType | undefined = undefined>(
    p: string,
    h: RouteHandler<S extends z.ZodType ? z.output<S> : unknown>,
    o?: RouteOptions<S>,
  ) {
    return this.add('PUT', p, h, o);
  }
  delete<S extends z.ZodType | undefined = undefined>(
    p: string,
    h: RouteHandler<S extends z.ZodType ? z.output<S> : unknown>,
    o?: RouteOptions<S>,
  ) {
    return this.add('DELETE', p, h, o);
  }

  include(...routers: Router[]): this {
    for (const r of routers) this.routes.push(...r.routes);
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
