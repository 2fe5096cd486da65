import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { webhookPayload } from './payload.js';
import { generateWebhookSecret, signWebhook } from './signing.js';

describe('Standard Webhooks signing', () => {
  it('makes whsec_ secrets the reference library accepts, and signatures it verifies', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(generateWebhookSecret()).not.toBe(secret);
    const body = JSON.stringify({ bank: 1, type: 2, content: { amount: '1.00' } });
    const ts = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(ts),
      'webhook-signature': signWebhook(secret, 'msg_1', ts, body),
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });
});

describe('webhook payload', () => {
  const statement = {
    kind: 'statement' as const,
    account: '001',
    sender: 'U Ba',
    remark: 'r',
    send_date: '2026-11-23',
    send_time: '10:00:00',
    amount: '5.00',
    inflow: false,
  };
  it('keeps sender for KBZ only and send_time for AYA only, and signs money out', () => {
    expect(webhookPayload({ ...statement, bank: 1 })?.content).toMatchObject({
      sender: 'U Ba',
      send_time: '',
      amount: '-5.00',
    });
    expect(webhookPayload({ ...statement, bank: 2, inflow: true })?.content).toMatchObject({
      sender: '',
      send_time: '10:00:00',
      amount: '5.00',
    });
    expect(webhookPayload({ kind: 'stale', bank: 1, user: 'u', since: 0, interval: 10 })).toBeUndefined();
  });
});
