import { createHash } from 'node:crypto';

/**
 * How the inbound webhook finds an account by the key a caller sends: the key itself is stored
 * only encrypted (it is revealed through an audited call), so the account also keeps this digest,
 * indexed. Domain-separated so the digest is of no use anywhere else.
 */
export function apiKeyHash(apiKey: string): string {
  return createHash('sha256').update(`patrol/bank-api-key\0${apiKey}`).digest('base64url');
}
