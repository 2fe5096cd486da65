import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { balanceExample, statementExample } from '../../shared/bankWebhookExamples.js';
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
});
