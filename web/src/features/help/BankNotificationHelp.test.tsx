import type { ApiDocument, JsonSchema } from '@shared/bankWebhookDocs';
import { verifyWithLibrary, verifyWithNodeCrypto } from '@shared/webhookRecipes';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, Providers } from '@/test/renderApp';
import { serverError, stubApi } from '@/test/stubApi';
import HelpPage from './HelpPage';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.unstubAllGlobals());

// A document shaped as functions/openapi/openApiDocument.ts writes it, with texts of its own so the
// assertions prove the page shows the document's words, not texts of its own.
const bank: JsonSchema = {
  anyOf: [
    { type: 'number', const: 1 },
    { type: 'number', const: 2 },
  ],
  description: 'Doc: the bank',
};
const variant = (type: 1 | 2, content: JsonSchema): JsonSchema => ({
  type: 'object',
  title: type === 1 ? 'Statement' : 'Balance',
  properties: {
    bank,
    type: { type: 'number', const: type, description: 'Doc: what it is' },
    content: { ...content, description: 'Doc: what happened' },
  },
  required: ['bank', 'type', 'content'],
});
const body: JsonSchema = {
  oneOf: [
    variant(1, {
      type: 'object',
      title: 'Statement content',
      properties: {
        account: { type: 'string', minLength: 1, maxLength: 64, description: 'Doc: sub-account number' },
        sender: { type: 'string', default: '', maxLength: 200, description: 'Doc: `KBZ` only' },
        amount: { type: 'string', pattern: '^-?\\d+$', description: 'Doc: signed amount' },
      },
      required: ['account', 'amount'],
    }),
    variant(2, {
      type: 'object',
      title: 'Balance content',
      properties: {
        bank: { anyOf: [bank, { type: 'string', enum: ['1', '2'] }], description: 'Doc: bank again' },
        cur_bal: { type: 'string', description: 'Doc: balance now' },
      },
      required: ['bank', 'cur_bal'],
    }),
  ],
};
const statement = {
  bank: 1,
  type: 1,
  content: { account: '0099', sender: 'U Ba', amount: '15.00' },
};
const media = {
  'application/json': {
    schema: body,
    examples: {
      statement: { summary: 'Doc: a statement', value: statement },
      balance: { summary: 'Doc: a balance', value: { bank: 2, type: 2, content: { bank: '2', cur_bal: '9.00' } } },
    },
  },
};
const doc: ApiDocument = {
  openapi: '3.1.0',
  servers: [{ url: '/api/v1' }],
  paths: {
    '/webhook/bank': {
      servers: [{ url: '/' }],
      post: {
        operationId: 'pushBankNotification',
        description: 'Doc: records it, then answers fast.',
        security: [{ apiKey: [] }],
        requestBody: { content: media },
        responses: {
          '200': { description: 'Doc: recorded' },
          '400': { description: 'Doc: a refused field' },
          '401': { description: 'Doc: no or wrong key' },
          '413': { description: 'Doc: too large' },
          '429': { description: 'Doc: over the limit' },
        },
      },
    },
  },
  webhooks: {
    bankNotification: {
      post: {
        description: 'Doc: signed per Standard Webhooks.',
        parameters: [
          { in: 'header', name: 'X-API-Key', description: 'Doc: the api_key' },
          { in: 'header', name: 'webhook-id', required: true, description: 'Doc: the same on every attempt' },
          { in: 'header', name: 'webhook-timestamp', required: true, description: 'Doc: seconds' },
          { in: 'header', name: 'webhook-signature', required: true, description: 'Doc: v1 entries' },
        ],
        requestBody: { content: media },
        responses: {
          '2XX': { description: 'Doc: acknowledged' },
          '429': { description: 'Doc: retried' },
          '4XX': { description: 'Doc: not retried' },
          '5XX': { description: 'Doc: retried too' },
        },
      },
    },
  },
  components: {
    securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Doc: a key' } },
  },
};

async function openTab(answer: () => Response = () => jsonResponse(doc)) {
  const server = stubApi({ 'GET /openapi.json': answer });
  const user = userEvent.setup();
  render(
    <Providers>
      <HelpPage />
    </Providers>,
  );
  await user.click(screen.getByRole('tab', { name: 'Bank Notification' }));
  return { user, server };
}

const cells = (table: HTMLElement, name: string) =>
  within(within(table).getByText(name, { selector: 'code' }).closest('tr') as HTMLElement)
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('Help: Bank Notification', () => {
  it('renders the inbound path, key header, field tables, examples and responses from the document', async () => {
    const { server } = await openTab();
    const body = await screen.findByRole('table', { name: 'Body' });
    expect(server.callsTo('GET', '/openapi.json')).toHaveLength(1);
    expect(within(screen.getByRole('region', { name: 'Endpoint' })).getByText('POST')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Endpoint' })).toHaveTextContent(
      `${window.location.origin}/webhook/bank`,
    );
    expect(screen.getByText('Doc: records it, then answers fast.')).toBeInTheDocument();
    expect(screen.getByText(/Doc: a key/).closest('span')).toHaveTextContent('X-API-Key');

    // The body merges the variants; the content tables are the variants' contents.
    expect(cells(body, 'type')).toEqual(['type', '1 | 2', 'Yes', 'Doc: what it is']);
    expect(cells(body, 'content')).toEqual(['content', 'object', 'Yes', 'Doc: what happened']);
    const statementTable = screen.getByRole('table', { name: 'Statement content' });
    expect(cells(statementTable, 'account')).toEqual([
      'account',
      'string1-64 characters',
      'Yes',
      'Doc: sub-account number',
    ]);
    expect(cells(statementTable, 'sender')).toEqual([
      'sender',
      'stringat most 200 characters',
      'Nodefault ""',
      'Doc: KBZ only',
    ]);
    expect(cells(screen.getByRole('table', { name: 'Balance content' }), 'bank')).toEqual([
      'bank',
      '1 | 2 | "1" | "2"',
      'Yes',
      'Doc: bank again',
    ]);

    const examples = screen.getByRole('region', { name: 'Doc: a balance' });
    expect(within(examples).getByText(/"cur_bal": "9.00"/)).toBeInTheDocument();
    const responses = screen.getByRole('table', { name: 'Responses' });
    expect(
      within(responses)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual([
      'StatusMeaning',
      '200Doc: recorded',
      '400Doc: a refused field',
      '401Doc: no or wrong key',
      '413Doc: too large',
      '429Doc: over the limit',
    ]);
  });

  it('shows a curl call built from the document and copies it, saying Copied', async () => {
    const { user } = await openTab();
    const block = await screen.findByRole('region', { name: 'curl example' });
    const curl = within(block).getByText(/^curl /, { selector: 'code' }).textContent ?? '';
    expect(curl).toContain(`curl -X POST '${window.location.origin}/webhook/bank'`);
    expect(curl).toContain(`-H 'X-API-Key: <api_key>'`);
    expect(curl).toContain(`-d '${JSON.stringify(statement, null, 2)}'`);

    await user.click(within(block).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(curl);
    expect(within(block).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(within(block).getByRole('status')).toHaveTextContent('Copied');
  });

  it('documents the outbound headers, answers and both verification recipes', async () => {
    const { user } = await openTab();
    const headers = await screen.findByRole('table', { name: 'Headers' });
    expect(cells(headers, 'X-API-Key')).toEqual(['X-API-Key', 'No', 'Doc: the api_key']);
    expect(cells(headers, 'webhook-signature')).toEqual(['webhook-signature', 'Yes', 'Doc: v1 entries']);
    const answers = screen.getByRole('table', { name: 'What your answer means' });
    expect(
      within(answers)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual([
      'StatusMeaning',
      '2XXDoc: acknowledged',
      '429Doc: retried',
      '4XXDoc: not retried',
      '5XXDoc: retried too',
    ]);

    const library = screen.getByRole('region', { name: 'Node.js · standardwebhooks' });
    expect(within(library).getByText(/new Webhook/, { selector: 'code' }).textContent).toBe(verifyWithLibrary);
    await user.click(screen.getByRole('tab', { name: 'Node.js · node:crypto' }));
    const crypto = screen.getByRole('region', { name: 'Node.js · node:crypto' });
    expect(within(crypto).getByText(/timingSafeEqual/, { selector: 'code' }).textContent).toBe(verifyWithNodeCrypto);
    await user.click(within(crypto).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(verifyWithNodeCrypto);
  });

  it('says so when the document cannot be loaded', async () => {
    await openTab(serverError);
    expect(await screen.findByRole('alert')).toHaveTextContent('Loading the API document failed');
  });
});
