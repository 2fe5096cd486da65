import { createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks signing (https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md):
// the signed content is `${webhook-id}.${webhook-timestamp}.${body}`, HMAC-SHA256 with the secret's
// bytes (base64 after the `whsec_` prefix), sent as `v1,<base64>`. Any of the spec's reference
// libraries (npm `standardwebhooks`, Python `standardwebhooks`, Svix's) verifies it.

const PREFIX = 'whsec_';

/** A new per-account signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/**
 * The `webhook-id` of a notification sent to an account's webhook: the same for every attempt,
 * retry, replay and resend after a crash of that message (Standard Webhooks: the id is the message's,
 * so a receiver de-duplicates by it), never the same for two notifications. Only the signature and
 * the timestamp change between attempts.
 */
export const webhookMessageId = (notificationId: number, accountId: number): string =>
  `msg_${notificationId}_${accountId}`;

/** The `webhook-signature` header value for one delivery. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}
