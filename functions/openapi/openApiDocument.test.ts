import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ApiDocument,
  inboundCurl,
  inboundWebhookDocs,
  outboundWebhookDocs,
} from '../../shared/bankWebhookDocs.js';
import { balanceExample, statementExample } from '../../shared/bankWebhookExamples.js';
import { verificationRecipes } from '../../shared/webhookRecipes.js';
import { RawReply } from '../lib/http/router.js';
import { rootRouter, router } from '../api.js';
import { webhookPayload } from '../bankWebhook/payload.js';
import { openApiDocument } from './openApiDocument.js';

const doc = openApiDocument(router, rootRouter, '1.0.0');
// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
const json: any = JSON.parse(JSON.stringify(doc));

/** The JSON schema at `schema`, its `$ref` to components resolved, read back by zod's JSON Schema reader. */
function schemaOf(schema: { $ref?: string }) {
  const resolved = schema.$ref ? json.components.schemas[schema.$ref.split('/').pop() as string] : schema;
  return z.fromJSONSchema(resolved);
}

describe('the API document', () => {
  it('validates as OpenAPI 3.1', async () => {
    const validator = new Validator();
    const res = await validator.validate(json);
    expect(res.errors).toBeUndefined();
    expect(res.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The validator does refuse a broken document (a path item with an unknown method).
    const broken = { ...json, paths: { ...json.paths, '/x': { fetch: {} } } };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('has every route of the routers, with its method', () => {
    const operations = Object.entries(json.paths).flatMap(([path, item]) =>
      Object.keys(item as object)
        .filter((k) => k !== 'servers')
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    const routes = [...router.routes, ...rootRouter.routes].map(
      (r) => `${r.method} ${r.pattern.replace(/[:*](\w+)/g, '{$1}')}`,
    );
    expect(new Set(operations)).toEqual(new Set(routes));
    expect(operations).toContain('GET /openapi.json');
    expect(operations).toContain('POST /webhook/bank');
  });

  it('gives list routes the list query and page envelope, body routes their schema, public routes no security', () => {
    const sites = json.paths['/sites'].get;
    expect(sites.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['page', 'page_size', 'sort', 'name', 'url']),
    );
    expect(sites.responses['200'].content['application/json'].schema.properties.data.$ref).toBe(
      '#/components/schemas/ListPage',
    );
    expect(json.paths['/login'].post.requestBody.content['application/json'].schema.properties).toHaveProperty(
      'password',
    );
    expect(json.paths['/login'].post.security).toEqual([]);
    expect(json.paths['/super/users'].get.responses).toHaveProperty('403');
  });

  it('declares the API token scheme: either credential by default, /metrics a token only, the scopes per operation', () => {
    expect(json.components.securitySchemes.apiToken).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'pat_…',
    });
    expect(json.security).toEqual([{ bearerAuth: [] }, { apiToken: [] }]);
    expect(json.paths['/metrics'].get.security).toEqual([{ apiToken: [] }]);
    expect(json.paths['/sites'].get['x-token-scopes']).toEqual(['read', 'operate']);
    expect(json.paths['/sites'].post['x-token-scopes']).toEqual(['operate']);
    expect(json.paths['/sites/accounts/{id}/pwd'].get['x-token-scopes']).toEqual([]);
    expect(json.paths['/super/tokens'].get).not.toHaveProperty('x-token-scopes');
  });

  it('documents the inbound webhook: root server, X-API-Key, 400/401/413/429', () => {
    const item = json.paths['/webhook/bank'];
    expect(item.servers).toEqual([{ url: '/' }]);
    expect(item.post.security).toEqual([{ apiKey: [] }]);
    expect(json.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(Object.keys(item.post.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '413', '429']));
  });

  it("its inbound webhook schema accepts the Help page's examples and refuses bad bodies", () => {
    const body = schemaOf(json.paths['/webhook/bank'].post.requestBody.content['application/json'].schema);
    expect(body.safeParse(statementExample).success).toBe(true);
    expect(body.safeParse(balanceExample).success).toBe(true);
    expect(body.safeParse({ ...statementExample, bank: 3 }).success).toBe(false);
    expect(
      body.safeParse({ ...statementExample, content: { ...statementExample.content, amount: 'lots' } }).success,
    ).toBe(false);
    expect(body.safeParse({ bank: 1, type: 1 }).success).toBe(false);
  });

  it('documents the outbound bank notification with its Standard Webhooks headers', () => {
    const post = json.webhooks.bankNotification.post;
    const headers = post.parameters.filter((p: { in: string }) => p.in === 'header');
    expect(headers.map((p: { name: string }) => p.name).sort()).toEqual([
      'X-API-Key',
      'webhook-id',
      'webhook-signature',
      'webhook-timestamp',
    ]);
    // At least once, so the id is the message's: a receiver de-duplicates by it.
    const id = headers.find((p: { name: string }) => p.name === 'webhook-id');
    expect(id.description).toMatch(/the same on every attempt, replay and resend/);
    expect(post.description).toMatch(/process each `webhook-id` once and answer 2xx to a repeat/);
    expect(post.description).not.toMatch(/new `webhook-id`/);
    expect(schemaOf(post.requestBody.content['application/json'].schema).safeParse(statementExample).success).toBe(
      true,
    );
  });

  it('describes the outbound body as sent: a balance content is numeric strings, its bank "1" or "2"', () => {
    const body = schemaOf(json.webhooks.bankNotification.post.requestBody.content['application/json'].schema);
    const balance = webhookPayload({
      kind: 'balance',
      bank: 2,
      account: '0041203010008871',
      pre_bal: '2500000.00',
      cur_bal: '2650000.00',
      amount: '150000.00',
      reconciled: true,
      difference: '0.00',
    });
    expect(balance?.content.bank).toBe('2');
    expect(body.safeParse(balance).success).toBe(true);
    expect(body.safeParse(balanceExample).success).toBe(true);
    expect(body.safeParse({ ...balanceExample, content: { ...balanceExample.content, bank: 2 } }).success).toBe(false);
    const statement = webhookPayload({
      kind: 'statement',
      bank: 1,
      account: '02730102745521001',
      sender: 'U AUNG KYAW',
      remark: 'Deposit',
      send_date: '2026-11-22',
      send_time: '',
      amount: '150000.00',
      inflow: false,
    });
    expect(statement?.content).toMatchObject({ bank: 1, amount: '-150000.00' });
    expect(body.safeParse(statement).success).toBe(true);
  });

  it('documents what an answer to a delivery means, and carries the verification recipes', () => {
    const post = json.webhooks.bankNotification.post;
    expect(Object.keys(post.responses).sort()).toEqual(['2XX', '429', '4XX', '5XX']);
    expect(post.responses['4XX'].description).toMatch(/not retried/i);
    expect(post['x-codeSamples'].map((s: { source: string }) => s.source)).toEqual(
      verificationRecipes.map((r) => r.source),
    );
  });
});

/** The document exactly as GET /api/v1/openapi.json serves it. */
async function servedDocument(): Promise<ApiDocument> {
  const route = router.routes.find((r) => r.method === 'GET' && r.pattern.endsWith('/openapi.json'));
  const reply = (await route?.handler({} as never)) as RawReply;
  expect(reply).toBeInstanceOf(RawReply);
  expect(reply.headers['content-type']).toBe('application/json');
  return JSON.parse(reply.body);
}

/** The body of a `curl … -d '<json>'` line, shell quoting undone. */
function curlBody(curl: string): unknown {
  const quoted = /-d '((?:[^']|'\\'')*)'$/.exec(curl)?.[1];
  if (quoted === undefined) throw new Error(`no -d in ${curl}`);
  return JSON.parse(quoted.replaceAll(`'\\''`, "'"));
}

describe("the Help page's reading of the served document", () => {
  it("builds the curl example from it, and the inbound schema accepts the example's body", async () => {
    const served = await servedDocument();
    const inbound = inboundWebhookDocs(served);
    expect(inbound).toMatchObject({
      method: 'POST',
      path: '/webhook/bank',
      server: '/',
      auth: { header: 'X-API-Key' },
    });
    const curl = inboundCurl(inbound!, 'https://patrol.example.com');
    expect(curl.split(' \\\n  ').slice(0, 3)).toEqual([
      "curl -X POST 'https://patrol.example.com/webhook/bank'",
      "-H 'Content-Type: application/json'",
      "-H 'X-API-Key: <api_key>'",
    ]);
    const body = curlBody(curl);
    expect(body).toEqual(statementExample);
    expect(schemaOf(inbound!.body as { $ref?: string }).safeParse(body).success).toBe(true);
    // The schema is not a yes-to-everything: the same body with a wrong amount is refused.
    const tampered = { ...statementExample, content: { ...statementExample.content, amount: '1,500' } };
    expect(schemaOf(inbound!.body as { $ref?: string }).safeParse(tampered).success).toBe(false);
  });

  it('quotes a body with an apostrophe so the shell passes it through unchanged', () => {
    const served = JSON.parse(JSON.stringify(json));
    const examples = served.paths['/webhook/bank'].post.requestBody.content['application/json'].examples;
    examples.statement.value.content.remark = "Aung's deposit";
    expect(curlBody(inboundCurl(inboundWebhookDocs(served)!, 'http://127.0.0.1:8080'))).toMatchObject({
      content: { remark: "Aung's deposit" },
    });
  });

  it('reads every field description, the responses and the outbound headers', async () => {
    const served = await servedDocument();
    const inbound = inboundWebhookDocs(served)!;
    const [statement, balance] = inbound.body.oneOf ?? [];
    for (const variant of [statement, balance]) {
      for (const [name, field] of Object.entries(variant?.properties ?? {})) {
        expect(field.description, name).toBeTruthy();
      }
      for (const [name, field] of Object.entries(variant?.properties?.content?.properties ?? {})) {
        expect(field.description, `content.${name}`).toBeTruthy();
      }
    }
    expect(statement?.properties?.content?.title).toBe('Statement content');
    expect(inbound.responses.map((r) => r.status)).toEqual([
      '200',
      '400',
      '401',
      '409',
      '413',
      '415',
      '429',
      'default',
    ]);
    const outbound = outboundWebhookDocs(served)!;
    expect(outbound.headers.map((h) => [h.name, h.required])).toEqual([
      ['X-API-Key', false],
      ['webhook-id', true],
      ['webhook-timestamp', true],
      ['webhook-signature', true],
    ]);
    expect(outbound.responses.map((r) => r.status)).toEqual(['2XX', '429', '4XX', '5XX']);
  });
});
