// The bank webhook recipes the Help page shows, written once: the curl call for the inbound webhook
// and the signature checks for the outbound one. tests/integration/webhookRecipes.test.ts runs these
// exact texts against a real delivery, so what an integrator copies from the page is what was tested.

/** The exported function each verification recipe defines: `(secret, rawBody, headers) => body`. */
export const VERIFY_FUNCTION = 'verifyBankNotification';

/** Standard Webhooks' reference library (npm `standardwebhooks`). */
export const verifyWithLibrary = `import { Webhook } from 'standardwebhooks';

// secret:  the bank account's signing secret, "whsec_…"
// rawBody: the request body exactly as received, as a string (verify before JSON.parse)
// headers: the request headers (webhook-id, webhook-timestamp, webhook-signature)
// Returns the parsed body; throws when the signature does not match or the timestamp
// is more than 5 minutes away from now.
// Delivery is at least once: the same notification may arrive again (a retry, a replay, or a
// resend after a crash), always with the same webhook-id. Process each webhook-id once (store it
// under a unique key with what it did) and answer 2xx to a repeat.
export function verifyBankNotification(secret, rawBody, headers) {
  return new Webhook(secret).verify(rawBody, headers);
}
`;

/** The same check with node:crypto only. */
export const verifyWithNodeCrypto = `import { createHmac, timingSafeEqual } from 'node:crypto';

const TOLERANCE_SECONDS = 5 * 60;

// secret:  the bank account's signing secret, "whsec_…"
// rawBody: the request body exactly as received, as a string (verify before JSON.parse)
// headers: the request headers, names in lower case (as Node gives them)
// Returns the parsed body; throws when the signature does not match or the timestamp
// is more than 5 minutes away from now.
// Delivery is at least once: the same notification may arrive again (a retry, a replay, or a
// resend after a crash), always with the same webhook-id. Process each webhook-id once (store it
// under a unique key with what it did) and answer 2xx to a repeat.
export function verifyBankNotification(secret, rawBody, headers) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) throw new Error('Missing webhook headers');

  const now = Math.floor(Date.now() / 1000);
  if (!/^\\d+$/.test(timestamp) || Math.abs(now - Number(timestamp)) > TOLERANCE_SECONDS) {
    throw new Error('Timestamp too old or too new');
  }

  // The key is the base64 part after "whsec_"; the signed text is "<id>.<timestamp>.<body>".
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${rawBody}\`).digest();

  // The header may hold several space-separated "v1,<base64>" entries: accept any that matches.
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new Error('Invalid signature');
  return JSON.parse(rawBody);
}
`;

export interface VerificationRecipe {
  id: 'standardwebhooks' | 'node-crypto';
  label: string;
  /** A complete ES module exporting `verifyBankNotification(secret, rawBody, headers)`. */
  source: string;
}

export const verificationRecipes: readonly VerificationRecipe[] = [
  { id: 'standardwebhooks', label: 'Node.js · standardwebhooks', source: verifyWithLibrary },
  { id: 'node-crypto', label: 'Node.js · node:crypto', source: verifyWithNodeCrypto },
];

/** A POSIX shell single-quoted word: safe for any text, quotes included. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

export interface CurlInput {
  method: string;
  url: string;
  headers: readonly (readonly [name: string, value: string])[];
  /** Sent as JSON, pretty-printed so the page reads well. */
  body: unknown;
}

/** A curl command line, one option per line. */
export function curlCommand({ method, url, headers, body }: CurlInput): string {
  return [
    `curl -X ${method} ${shellQuote(url)}`,
    ...headers.map(([name, value]) => `-H ${shellQuote(`${name}: ${value}`)}`),
    `-d ${shellQuote(JSON.stringify(body, null, 2))}`,
  ].join(' \\\n  ');
}
