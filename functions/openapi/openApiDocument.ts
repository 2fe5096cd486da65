import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiObject,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { INBOUND_OPERATION_ID, OUTBOUND_WEBHOOK_NAME } from '../../shared/bankWebhookDocs.js';
import { balanceExample, statementExample } from '../../shared/bankWebhookExamples.js';
import { HEADERS, SUCCESS_CODE } from '../../shared/envelope.js';
import { fieldSpec, LIST_DEFAULTS, type ListFields, PAGE_ALL_CAP } from '../../shared/listQuery.js';
import {
  BankWebhookBody,
  INBOUND_BANK_WEBHOOK_MAX_BYTES,
  INBOUND_BANK_WEBHOOK_PATH,
  OutboundBankWebhookBody,
  WEBHOOK_HEADERS,
} from '../../shared/schemas/bankWebhook.js';
import { verificationRecipes } from '../../shared/webhookRecipes.js';
import { API_PREFIX } from '../lib/http/apiHandler.js';
import { lowestRole, type Route, type Router } from '../lib/http/router.js';
import { tokenAllows } from '../lib/http/tokenScope.js';
import { ApiTokenScope } from '../../shared/schemas/apiTokens.js';

// The API document (OpenAPI 3.1), written from what the code declares: every route of the routers
// with its access, path parameters and zod body schema, the list protocol on list routes, the inbound
// bank webhook, and the outbound bank notification in `webhooks`. Nothing here lists routes by hand,
// so a new route appears in the document as soon as a router declares it.

const BEARER = 'bearerAuth';
const API_KEY = 'apiKey';
/** API tokens (issue 46): the same Authorization header, `pat_…`, held to their scope (tokenScope.ts). */
const API_TOKEN = 'apiToken';
const TOKEN_SCOPES = Object.values(ApiTokenScope.values);

const Failure = z
  .object({
    code: z.number().int().meta({ description: 'Business error code (shared/errors.ts)' }),
    msg: z.string(),
    extra: z
      .record(z.string(), z.union([z.string(), z.number(), z.array(z.string())]))
      .optional()
      .meta({
        description:
          'Field → message for a refused field; for an alert rule condition that does not parse (4003): `column` (1-based), `expected` (token kinds), `found`',
      }),
    request_id: z.string(),
  })
  .meta({ id: 'ApiFailure', description: 'Every failure: never `data`, always `request_id`.' });

function success(data: z.ZodType) {
  return z.object({ code: z.literal(SUCCESS_CODE), msg: z.string(), data });
}

const ListPage = z
  .object({
    result: z.array(z.record(z.string(), z.unknown())),
    total_count: z.number().int(),
    page_size: z.number().int(),
    page: z.number().int(),
    total_exact: z.literal(false).optional().meta({
      description: 'Present when a bounded read reached its budget: total_count counts the `searched` newest rows only',
    }),
    searched: z.number().int().optional(),
  })
  .meta({ id: 'ListPage', description: 'One page of a list (shared/listQuery.ts)' });

const failure = (description: string) => ({ description, content: { 'application/json': { schema: Failure } } });

const FILTER_SYNTAX: Record<string, string> = {
  text: 'case-insensitive substring',
  boolean: 'true | false',
  enum: 'any of the values, comma separated',
  number: "'{condition}-{value}', condition one of = != < <= > >=",
  date: "'start,end' in millisecond stamps; either side may be empty",
  datetime: "'start,end' in millisecond stamps; either side may be empty",
  time: "'start,end' in ms since midnight; either side may be empty",
};

/** The list protocol's query (shared/listQuery.ts) plus a filter per field the list offers one on. */
function listQuery(fields: ListFields): Record<string, z.ZodType> {
  const q = (description: string, schema: z.ZodString = z.string()) => schema.optional().meta({ description });
  const specs = Object.entries(fields).map(([name, declared]) => [name, fieldSpec(declared)] as const);
  const sortable = specs.filter(([, s]) => s.sort).map(([n]) => n);
  const searchable = specs.filter(([, s]) => s.search).map(([n]) => n);
  const shape: Record<string, z.ZodType> = {
    page: q(`Page number, from 1 (default ${LIST_DEFAULTS.page})`, z.string().regex(/^\d+$/)),
    page_size: q(
      `Rows per page (default ${LIST_DEFAULTS.pageSize}); 0 means all, at most ${PAGE_ALL_CAP}`,
      z.string().regex(/^\d+$/),
    ),
    sort: q(`JSON object field → 'asc' | 'desc'; sortable: ${sortable.join(', ') || 'none'}`),
  };
  if (searchable.length) {
    shape.keyword = q('Case-insensitive substring, at least 3 characters');
    shape.keywordField = q(`Columns the keyword searches, comma separated: ${searchable.join(', ')}`);
  }
  for (const [name, spec] of specs) {
    if (!spec.filter) continue;
    const options = spec.options?.map((o) => `${o.value} ${o.label}`).join(', ');
    shape[name] = q(`Filter (${spec.type}): ${FILTER_SYNTAX[spec.type]}${options ? `; ${options}` : ''}`);
  }
  return shape;
}

/** `/sites/:id` → `/sites/{id}`, with its parameters: `:x` is a numeric id, `*x` any one segment. */
function openApiPath(pattern: string): { path: string; params: Record<string, z.ZodType> } {
  const params: Record<string, z.ZodType> = {};
  const path = pattern
    .split('/')
    .map((seg) => {
      if (!seg.startsWith(':') && !seg.startsWith('*')) return seg;
      const name = seg.slice(1);
      const numeric = seg.startsWith(':');
      params[name] = numeric
        ? z
            .string()
            .regex(/^\d{1,15}$/)
            .meta({ description: 'A numeric id' })
        : z.string();
      return `{${name}}`;
    })
    .join('/');
  return { path, params };
}

/** What a list call may say beside its query: how to read the page, never what it holds. */
const listHeaders = z.object({
  [HEADERS.listJump]: z.literal('1').optional().meta({
    description:
      'The caller jumped to this page (not the page after one it showed): the pages up to it are read beside the count, without a cursor lookup',
  }),
});

function operation(route: Route, params: Record<string, z.ZodType>): ZodOpenApiOperationObject {
  const access = typeof route.access === 'string' ? route.access : 'api-key';
  const responses: ZodOpenApiResponsesObject = {
    '200': {
      description: route.list ? 'One page of the list' : 'Success',
      ...(route.list || route.query
        ? {
            headers: {
              [HEADERS.consumedCapacity]: { description: 'Read units the call consumed', schema: { type: 'string' } },
            },
          }
        : {}),
      content: {
        'application/json': { schema: success(route.list ? ListPage : z.unknown()) },
      },
    },
  };
  if (route.body || route.list || route.query || Object.keys(params).length)
    responses['400'] = failure('A refused field, named in `extra`');
  if (access !== 'public') responses['401'] = failure('Missing, wrong or expired credentials');
  const role = access === 'user' || access === 'super' ? lowestRole(route) : undefined;
  if (route.tokenScope)
    responses['403'] = failure(`A session, or a token of another scope than ${route.tokenScope} (code 4037, 4036)`);
  else if (access === 'super') responses['403'] = failure('Not the super role');
  else if (role === 'operator') responses['403'] = failure('The viewer role reads only (code 4032)');
  if (route.body) responses['415'] = failure('A body that is not JSON (Content-Type: application/json)');
  if (route.maxBodyBytes) responses['413'] = failure(`Body over ${route.maxBodyBytes} bytes`);
  if (typeof route.access !== 'string') responses['429'] = failure('Over the per-key rate limit');
  responses.default = failure('Any other failure, in the error envelope');

  const tag = route.pattern.replace(API_PREFIX, '').split('/')[1] || 'root';
  return {
    tags: [tag],
    summary: `${route.method} ${route.pattern}`,
    description: `Access: ${access}${role ? `, lowest role ${role}` : ''}.`,
    ...(role ? { 'x-lowest-role': role } : {}),
    ...(access === 'user' ? { 'x-token-scopes': TOKEN_SCOPES.filter((scope) => tokenAllows(scope, route)) } : {}),
    ...(access === 'public'
      ? { security: [] }
      : access === 'api-key'
        ? { security: [{ [API_KEY]: [] }] }
        : route.tokenScope
          ? { security: [{ [API_TOKEN]: [] }] }
          : {}),
    requestParams: {
      ...(Object.keys(params).length ? { path: z.object(params) } : {}),
      ...(route.list ? { query: z.object(listQuery(route.list)), header: listHeaders } : {}),
      ...(route.query ? { query: route.query as z.ZodObject } : {}),
    },
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
    responses,
  };
}

function addRoutes(paths: ZodOpenApiPathsObject, routes: readonly Route[], servers?: { url: string }[]): void {
  for (const route of routes) {
    const { path, params } = openApiPath(route.pattern);
    paths[path] ??= servers ? { servers } : {};
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    paths[path][method] = operation(route, params);
  }
}

const exampleBodies = {
  statement: { summary: 'A KBZ statement', value: statementExample },
  balance: { summary: 'An AYA balance', value: balanceExample },
};

const outboundHeaders = z.object({
  'X-API-Key': z.string().optional().meta({ description: "The account's api_key, when one is set" }),
  [WEBHOOK_HEADERS.id]: z.string().meta({
    description:
      "`msg_<notification id>_<account id>`: the message's id, the same on every attempt, replay and resend; " +
      'de-duplicate by it',
  }),
  [WEBHOOK_HEADERS.timestamp]: z.string().regex(/^\d+$/).meta({ description: 'Seconds since the epoch' }),
  [WEBHOOK_HEADERS.signature]: z
    .string()
    .regex(/^v1,/)
    .meta({ description: 'Space-separated `v1,<base64 signature>` entries' }),
});

/** The outbound bank notification (docs/notifications.md): what Patrol POSTs to an account's webhook. */
const outboundBankNotification: ZodOpenApiOperationObject = {
  summary: 'Bank notification delivered to the account webhook',
  description:
    'Signed per Standard Webhooks (https://www.standardwebhooks.com): `webhook-signature` is ' +
    '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` keyed with the base64-decoded part of ' +
    "the account's `whsec_` secret (GET /bank/bank-account/{id}/webhook-secret). Verify the raw body before parsing " +
    'it and refuse a timestamp more than 5 minutes away; `x-codeSamples` (and the Help page, Bank Notification tab) ' +
    'hold two recipes. Delivery is at least once: a notification is not sent again once a 2xx acknowledged it, but ' +
    'a crash between your 2xx and Patrol recording it sends it again. Every attempt, retry, replay and resend of a ' +
    'notification carries the same `webhook-id` (a new timestamp and signature): process each `webhook-id` once and ' +
    'answer 2xx to a repeat.',
  requestParams: { header: outboundHeaders },
  requestBody: {
    required: true,
    // What is sent (payload.ts), narrower than what the inbound webhook takes: a balance's content.bank is a string.
    content: { 'application/json': { schema: OutboundBankWebhookBody, examples: exampleBodies } },
  },
  responses: {
    '2XX': { description: 'Acknowledged: the notification is delivered and never sent again' },
    '429': { description: 'Retried with exponential backoff until the attempts run out, then Failed' },
    '4XX': { description: 'Any other 4xx: not retried; the notification ends Failed' },
    '5XX': {
      description:
        'Retried with exponential backoff until the attempts run out, then Failed; so is no answer within 10 s',
    },
  },
  'x-codeSamples': verificationRecipes.map((r) => ({ lang: 'JavaScript', label: r.label, source: r.source })),
};

/** The inbound webhook's operation, filled in beyond what the route declares (its examples and limits). */
function withInboundDetails(paths: ZodOpenApiPathsObject): void {
  const post = paths[INBOUND_BANK_WEBHOOK_PATH]?.post;
  if (!post) return;
  post.operationId = INBOUND_OPERATION_ID;
  post.summary = 'Push a bank statement or balance';
  post.description =
    "Records it exactly as the bank poller does, then answers fast. Authenticated by the account's api_key in " +
    `X-API-Key; bodies over ${INBOUND_BANK_WEBHOOK_MAX_BYTES} bytes are refused; nothing is written on a failure.`;
  post.requestBody = {
    required: true,
    content: { 'application/json': { schema: BankWebhookBody, examples: exampleBodies } },
  };
  post.responses = {
    ...post.responses,
    '409': failure('A poll held the account for two seconds: send it again'),
    '200': {
      description: 'Recorded, or a duplicate of something recorded before',
      content: {
        'application/json': {
          schema: success(z.object({ recorded: z.boolean(), duplicate: z.boolean() })),
        },
      },
    },
  };
}

/**
 * The OpenAPI 3.1 document of `api` (the routes below /api/v1) and `root` (the routes outside it,
 * served from the host's root: the inbound bank webhook).
 */
export function openApiDocument(api: Router, root: Router, version: string): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  addRoutes(paths, api.routes);
  addRoutes(paths, root.routes, [{ url: '/' }]);
  withInboundDetails(paths);
  const doc: ZodOpenApiObject = {
    openapi: '3.1.0',
    info: {
      title: 'Patrol API',
      version,
      description:
        'Replies use the envelope `{code, msg, data}` (code 1000) and failures `{code, msg, extra?, request_id}`. ' +
        'List routes take the list protocol query (shared/listQuery.ts).',
    },
    servers: [{ url: API_PREFIX }],
    security: [{ [BEARER]: [] }, { [API_TOKEN]: [] }],
    components: {
      securitySchemes: {
        [BEARER]: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The jwt POST /login returns' },
        [API_KEY]: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: "A bank account's api_key" },
        [API_TOKEN]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'pat_…',
          description:
            'An API token a super user made (POST /super/tokens). Its scope bounds it: read (the GETs a viewer may make), ' +
            'operate (what an operator may do, no reveal), metrics (GET /metrics only); each operation lists the scopes it admits in x-token-scopes.',
        },
      },
    },
    paths,
    webhooks: { [OUTBOUND_WEBHOOK_NAME]: { post: outboundBankNotification } },
  };
  return createDocument(doc);
}
