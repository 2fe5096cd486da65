// Reads the bank webhooks out of the API document (GET /api/v1/openapi.json, built by
// functions/openapi/openApiDocument.ts): the inbound operation (found by its operationId) and the
// outbound notification (under `webhooks`). The Help page renders what this returns, and the
// document's tests read it the same way, so the page cannot drift from the document.
import { curlCommand } from './webhookRecipes.js';

/** The inbound webhook's operationId in the document. */
export const INBOUND_OPERATION_ID = 'pushBankNotification';
/** The outbound notification's name under the document's `webhooks`. */
export const OUTBOUND_WEBHOOK_NAME = 'bankNotification';

/** The part of JSON Schema (2020-12, as OpenAPI 3.1 uses it) the page reads. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  title?: string;
  description?: string;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

interface ParameterObject {
  in: string;
  name: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface MediaTypeObject {
  schema?: JsonSchema;
  examples?: Record<string, { summary?: string; value?: unknown }>;
}

interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: ParameterObject[];
  requestBody?: { content?: Record<string, MediaTypeObject> };
  responses?: Record<string, { description?: string }>;
}

type PathItemObject = { servers?: { url: string }[] } & Partial<
  Record<'get' | 'put' | 'post' | 'delete' | 'patch', OperationObject>
>;

interface SecuritySchemeObject {
  type: string;
  in?: string;
  name?: string;
  description?: string;
}

/** The part of an OpenAPI 3.1 document the page reads. */
export interface ApiDocument {
  openapi: string;
  info?: { title?: string; version?: string };
  servers?: { url: string }[];
  security?: Record<string, string[]>[];
  paths?: Record<string, PathItemObject>;
  webhooks?: Record<string, PathItemObject>;
  components?: {
    schemas?: Record<string, JsonSchema>;
    securitySchemes?: Record<string, SecuritySchemeObject>;
  };
}

export interface NamedExample {
  name: string;
  summary: string;
  value: unknown;
}

export interface DocumentedResponse {
  status: string;
  description: string;
}

export interface DocumentedHeader {
  name: string;
  required: boolean;
  description: string;
}

export interface InboundWebhookDocs {
  method: string;
  /** The path under its server, e.g. /webhook/bank. */
  path: string;
  /** The server the path hangs off, e.g. '/' (the host's root, outside /api/v1). */
  server: string;
  summary: string;
  description: string;
  /** The header carrying the API key, from the operation's security scheme. */
  auth: { header: string; description: string } | null;
  body: JsonSchema;
  examples: NamedExample[];
  responses: DocumentedResponse[];
}

export interface OutboundWebhookDocs {
  method: string;
  summary: string;
  description: string;
  headers: DocumentedHeader[];
  body: JsonSchema;
  examples: NamedExample[];
  responses: DocumentedResponse[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** `schema` with every `#/components/schemas/…` reference replaced by its target (a cycle stops at the repeat). */
function inline(doc: ApiDocument, schema: JsonSchema, seen: readonly string[] = []): JsonSchema {
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = doc.components?.schemas?.[name];
    if (!target || seen.includes(name)) return {};
    return inline(doc, target, [...seen, name]);
  }
  const out: JsonSchema = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([k, v]) => [k, inline(doc, v, seen)] as const),
    );
  }
  if (schema.anyOf) out.anyOf = schema.anyOf.map((s) => inline(doc, s, seen));
  if (schema.oneOf) out.oneOf = schema.oneOf.map((s) => inline(doc, s, seen));
  if (schema.items) out.items = inline(doc, schema.items, seen);
  return out;
}

function jsonBody(doc: ApiDocument, op: OperationObject): { body: JsonSchema; examples: NamedExample[] } {
  const media = op.requestBody?.content?.['application/json'];
  return {
    body: media?.schema ? inline(doc, media.schema) : {},
    examples: Object.entries(media?.examples ?? {}).map(([name, ex]) => ({
      name,
      summary: ex.summary ?? name,
      value: ex.value,
    })),
  };
}

/** Status codes in order, a range (`4XX`: "any other 4xx") after its class's codes, `default` last. */
function responsesOf(op: OperationObject): DocumentedResponse[] {
  const rank = (s: string) => (s === 'default' ? 1000 : /X/i.test(s) ? Number(s[0]) * 100 + 99.5 : Number(s));
  return Object.entries(op.responses ?? {})
    .map(([status, r]) => ({ status, description: r.description ?? '' }))
    .sort((a, b) => rank(a.status) - rank(b.status));
}

function findOperation(
  items: Record<string, PathItemObject> | undefined,
  operationId: string,
): { path: string; item: PathItemObject; method: string; op: OperationObject } | undefined {
  for (const [path, item] of Object.entries(items ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (op?.operationId === operationId) return { path, item, method, op };
    }
  }
  return undefined;
}

/** The inbound webhook as the document describes it; undefined when the document has none. */
export function inboundWebhookDocs(doc: ApiDocument): InboundWebhookDocs | undefined {
  const found = findOperation(doc.paths, INBOUND_OPERATION_ID);
  if (!found) return undefined;
  const { path, item, method, op } = found;
  const schemeName = Object.keys((op.security ?? doc.security ?? [])[0] ?? {})[0];
  const scheme = schemeName ? doc.components?.securitySchemes?.[schemeName] : undefined;
  return {
    method: method.toUpperCase(),
    path,
    server: item.servers?.[0]?.url ?? doc.servers?.[0]?.url ?? '/',
    summary: op.summary ?? '',
    description: op.description ?? '',
    auth:
      scheme?.type === 'apiKey' && scheme.in === 'header' && scheme.name
        ? { header: scheme.name, description: scheme.description ?? '' }
        : null,
    ...jsonBody(doc, op),
    responses: responsesOf(op),
  };
}

/** The outbound notification as the document describes it; undefined when the document has none. */
export function outboundWebhookDocs(doc: ApiDocument): OutboundWebhookDocs | undefined {
  const item = doc.webhooks?.[OUTBOUND_WEBHOOK_NAME];
  const method = METHODS.find((m) => item?.[m]);
  const op = method ? item?.[method] : undefined;
  if (!method || !op) return undefined;
  return {
    method: method.toUpperCase(),
    summary: op.summary ?? '',
    description: op.description ?? '',
    headers: (op.parameters ?? [])
      .filter((p) => p.in === 'header')
      .map((p) => ({
        name: p.name,
        required: p.required === true,
        description: p.description ?? p.schema?.description ?? '',
      })),
    ...jsonBody(doc, op),
    responses: responsesOf(op),
  };
}

/** The absolute URL of the inbound webhook on `origin` (e.g. https://patrol.example.com). */
export function inboundUrl(inbound: InboundWebhookDocs, origin: string): string {
  const base = new URL(inbound.server, `${origin.replace(/\/$/, '')}/`);
  return new URL(`${base.pathname.replace(/\/$/, '')}${inbound.path}`, base).href;
}

/** The placeholder the curl example shows for the account's API key. */
export const API_KEY_PLACEHOLDER = '<api_key>';

/** The curl call the Help page shows: the document's path, key header and first (statement) example. */
export function inboundCurl(inbound: InboundWebhookDocs, origin: string): string {
  const example = inbound.examples.find((e) => e.name === 'statement') ?? inbound.examples[0];
  return curlCommand({
    method: inbound.method,
    url: inboundUrl(inbound, origin),
    headers: [
      ['Content-Type', 'application/json'],
      ...(inbound.auth ? [[inbound.auth.header, API_KEY_PLACEHOLDER] as const] : []),
    ],
    body: example?.value ?? {},
  });
}
