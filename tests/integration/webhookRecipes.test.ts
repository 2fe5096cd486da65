// The Help page's Bank Notification recipes against the local stack (issue 15 part 4): the curl
// example, built from the served API document exactly as the page builds it, pushes a statement;
// the sandbox receiver captures the signed delivery that follows; each verification recipe, its
// exact text run in a fresh node, accepts that delivery with the revealed secret and refuses a
// tampered body and a wrong secret.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  API_KEY_PLACEHOLDER,
  type ApiDocument,
  inboundCurl,
  inboundWebhookDocs,
} from '../../shared/bankWebhookDocs.js';
import { statementExample } from '../../shared/bankWebhookExamples.js';
import { verificationRecipes } from '../../shared/webhookRecipes.js';
import { kit, uniqueName } from '../helpers/authKit.js';
import { runRecipe } from '../helpers/runRecipe.js';
import { type ReceivedRequest, receivedBy, until } from '../helpers/until.js';

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
let token: string;
const hooks = stack.env.SANDBOX_WEBHOOK_URL as string;

const get = (path: string) => client.get(`/api/v1${path}`, { token });

const received = (hook: string) => receivedBy(hooks, hook);

/**
 * A KBZ account on the sandbox bank with its sub-accounts known, delivering to a hook of its own;
 * enabled (only an enabled account's key may push) and not polled (its range is the day's first second).
 */
async function hookedAccount() {
  const hook = uniqueName('recipe').toLowerCase();
  const created = await client.post('/api/v1/bank/bank-accounts', {
    token,
    body: { bank_name: 1, user: uniqueName('rc').toLowerCase(), pwd: 'sandbox123' },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = created.body.data.id as number;
  await client.post(`/api/v1/bank/bank-account/${id}/refresh`, { token, body: {} });
  const apiKey = `key-${uniqueName('rk')}`;
  const upd = await client.put(`/api/v1/bank/bank-account/${id}`, {
    token,
    body: { webhook: `${hooks}/hooks/${hook}`, api_key: apiKey, range: [[0, 1]] },
  });
  expect(upd.status, JSON.stringify(upd.body)).toBe(200);
  const subs = (await get(`/bank/bank-account/${id}/sub`)).body.data as { no: string }[];
  return { id, hook, apiKey, no: (subs[0] as { no: string }).no };
}

beforeAll(async () => {
  token = await k.admin();
});
afterAll(() => k.destroy());

describe("the Help page's bank webhook recipes on a real delivery", () => {
  it('the curl example pushes a statement, and every verification recipe accepts its signed delivery only', async () => {
    const a = await hookedAccount();

    // The curl example as the page shows it on this origin; the integrator puts in their key and account.
    const served = await client.get<ApiDocument>('/api/v1/openapi.json');
    expect(served.status).toBe(200);
    const inbound = inboundWebhookDocs(served.body);
    expect(inbound).toBeDefined();
    const shown = inboundCurl(inbound!, stack.url);
    expect(shown).toContain(`${stack.url}/webhook/bank`);
    const curl = shown
      .replace(API_KEY_PLACEHOLDER, a.apiKey)
      .replace(statementExample.content.account, a.no)
      .concat(' --silent --show-error');
    const { stdout } = await promisify(execFile)('sh', ['-c', curl], { timeout: 30_000 });
    expect(JSON.parse(stdout)).toMatchObject({ code: 1000, data: { recorded: true, duplicate: false } });

    // The delivery Patrol sends for it, as the receiver got it: exact body bytes and headers.
    const [delivery] = await until(
      'the delivery',
      () => received(a.hook),
      (r) => r.length === 1,
    );
    const sent = delivery as ReceivedRequest;
    expect(JSON.parse(sent.body)).toEqual({
      ...statementExample,
      content: { ...statementExample.content, account: a.no },
    });
    const secret = (await get(`/bank/bank-account/${a.id}/webhook-secret`)).body.data.webhook_secret as string;
    const other = (await get(`/bank/bank-account/${(await hookedAccount()).id}/webhook-secret`)).body.data
      .webhook_secret as string;
    expect(other).not.toBe(secret);

    for (const recipe of verificationRecipes) {
      const outcomes = await runRecipe(recipe.source, [
        { secret, rawBody: sent.body, headers: sent.headers },
        { secret, rawBody: sent.body.replace(a.no, `${a.no}9`), headers: sent.headers },
        { secret: other, rawBody: sent.body, headers: sent.headers },
      ]);
      expect(outcomes[0], recipe.label).toEqual({ accepted: true, body: JSON.parse(sent.body) });
      expect(
        outcomes.slice(1).map((o) => o.accepted),
        recipe.label,
      ).toEqual([false, false]);
    }
  });
});
