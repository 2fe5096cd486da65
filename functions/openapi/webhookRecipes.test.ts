import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../bankWebhook/signing.js';
import { type RecipeCase, runRecipe } from '../../tests/helpers/runRecipe.js';
import { statementExample } from '../../shared/bankWebhookExamples.js';
import { verificationRecipes } from '../../shared/webhookRecipes.js';

// The Help page's verification recipes, run as written, on deliveries signed by Patrol's own signer
// (the integration test tests/integration/webhookRecipes.test.ts runs them on a real delivery).

const secret = generateWebhookSecret();
const body = JSON.stringify(statementExample);
const now = () => Math.floor(Date.now() / 1000);

function signed(at: number, over: Partial<RecipeCase> = {}, signWith = secret): RecipeCase {
  const id = `msg_7_${at}`;
  return {
    secret,
    rawBody: body,
    headers: {
      'webhook-id': id,
      'webhook-timestamp': String(at),
      'webhook-signature': signWebhook(signWith, id, at, body),
    },
    ...over,
  };
}

describe.each(verificationRecipes)('the $label recipe', ({ source }) => {
  it('accepts a fresh genuine delivery and refuses tampered, stale, future and foreign ones', async () => {
    const fresh = signed(now());
    const rotated = {
      ...fresh,
      // A receiver mid-rotation may see several entries; any one that matches will do.
      headers: {
        ...fresh.headers,
        'webhook-signature': `${signed(now(), {}, generateWebhookSecret()).headers['webhook-signature']} ${fresh.headers['webhook-signature']}`,
      },
    };
    const outcomes = await runRecipe(source, [
      fresh,
      rotated,
      { ...fresh, rawBody: body.replace('150000.00', '950000.00') },
      { ...fresh, secret: generateWebhookSecret() },
      signed(now() - 6 * 60),
      signed(now() + 6 * 60),
      { ...fresh, headers: { ...fresh.headers, 'webhook-signature': '' } },
    ]);
    expect(outcomes.map((o) => o.accepted)).toEqual([true, true, false, false, false, false, false]);
    expect(outcomes[0]).toEqual({ accepted: true, body: statementExample });
  });
});
