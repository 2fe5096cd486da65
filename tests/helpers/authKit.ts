// Test helpers of the auth and super-users tests: users made through the API, a captcha
// solved from what the server stored, and tokens re-signed with the stack's own secret.
import { createHmac, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SignJWT } from 'jose';
import { CAPTCHA_ALPHABET, CAPTCHA_LENGTH } from '../../functions/auth/captcha.js';
import { userThrottleKey } from '../../functions/auth/throttle.js';
import { api, login, loopbackAddress } from './api.js';
import type { StackInfo } from './globalStack.js';

let seq = 0;
/** A username no other test uses, so failure counters never leak between tests. */
export const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${(seq++).toString(36)}`;

// Test files share one stack and its throttle counters, and each file counts from its own start, so
// the start is random (not the pid: two files' pids can share their low bits and then every address).
let ipSeq = randomInt(0, 1 << 22);
/**
 * A client address of its own, so one test's failed logins never bring a captcha to another's: a
 * loopback address (all of 127/8 reaches the local server, here 127.1-127.64.x.y) that `fromIp` connects from.
 */
export const uniqueIp = () => loopbackAddress(1, ipSeq++);
/** Call options that make the request come from `ip` (a socket address, which a client cannot fake). */
export const fromIp = (ip: string) => ({ from: ip });

export function kit(stack: StackInfo) {
  const client = api(stack.url);
  // The signing key: the first line of the key file, `<kid> <key> [<since>]` or a bare key (functions/auth/jwtKeys.ts).
  const firstLine = readFileSync(join(stack.dataDir, 'jwt.key'), 'utf8').trim().split('\n')[0].trim().split(/\s+/);
  const jwtSecret = (firstLine.length === 1 ? firstLine[0] : firstLine[1]) ?? '';
  const dynamo = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: stack.env.AWS_REGION ?? 'us-east-1',
      endpoint: stack.env.DYNAMO_ENDPOINT,
      credentials: {
        accessKeyId: stack.env.AWS_ACCESS_KEY_ID ?? 'local',
        secretAccessKey: stack.env.AWS_SECRET_ACCESS_KEY ?? 'local',
      },
    }),
  );
  const table = stack.env.TABLE_NAME ?? 'patrol';

  let adminToken: string | undefined;
  const admin = async () => {
    adminToken ??= await login(stack.url, 'admin', stack.adminPassword);
    return adminToken;
  };

  return {
    client,
    jwtSecret,
    admin,

    /** Creates a user through POST /super/users as the seeded admin; returns its id. */
    async createUser(username: string, password: string, role: 'super' | 'operator' | 'viewer' = 'operator') {
      const res = await client.post('/api/v1/super/users', {
        token: await admin(),
        body: { username, password, role, nickname: `Nick ${username}` },
      });
      if (res.status !== 200) throw new Error(`create ${username}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data.id as number;
    },

    /** The raw stored row, as DynamoDB holds it. */
    async rawItem(pk: string, sk: string) {
      const out = await dynamo.send(new GetCommand({ TableName: table, Key: { pk, sk }, ConsistentRead: true }));
      return out.Item;
    },

    /**
     * Sets the failures counted for a username in its open window: a test's margin for the backoff,
     * which grows with the count (functions/auth/throttlePolicy.ts), instead of the machine's speed.
     */
    async setThrottleFailures(username: string, failures: number) {
      await dynamo.send(
        new UpdateCommand({
          TableName: table,
          Key: { pk: userThrottleKey(username), sk: 'throttle' },
          UpdateExpression: 'SET failures = :n',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':n': failures },
        }),
      );
    },

    /** Moves the username's next password check `ms` earlier: as if that much time had passed. */
    async moveThrottleSlotBack(username: string, ms: number) {
      await dynamo.send(
        new UpdateCommand({
          TableName: table,
          Key: { pk: userThrottleKey(username), sk: 'throttle' },
          UpdateExpression: 'SET next_check_at = next_check_at - :ms',
          ConditionExpression: 'attribute_exists(next_check_at)',
          ExpressionAttributeValues: { ':ms': ms },
        }),
      );
    },

    /**
     * Reads a captcha the way a person would: here by trying every answer against the keyed
     * hash the server stored (a person reads the image instead). Returns the answer.
     */
    async solveCaptcha(id: string): Promise<string> {
      const item = await this.rawItem(`captcha#${id}`, 'captcha');
      if (!item) throw new Error(`captcha ${id} is not stored`);
      const target = String(item.answer_hash);
      const hash = (answer: string) => createHmac('sha256', jwtSecret).update(`${id}:${answer}`).digest('base64');
      const n = CAPTCHA_ALPHABET.length;
      const total = n ** CAPTCHA_LENGTH;
      let answer: string | undefined;
      for (let i = 0; i < total && !answer; i++) {
        let candidate = '';
        for (let rest = i, d = 0; d < CAPTCHA_LENGTH; d++, rest = Math.floor(rest / n))
          candidate += CAPTCHA_ALPHABET[rest % n];
        if (hash(candidate) === target) answer = candidate;
        // Let the event loop run now and then: an idle keep-alive socket the server closes
        // meanwhile must be noticed before the next request picks it.
        if (i % 20_000 === 0) await new Promise((r) => setImmediate(r));
      }
      if (!answer) throw new Error('captcha answer not found');
      return answer;
    },

    /** Signs claims with the stack's JWT secret, as only the server should be able to. */
    async sign(claims: { sub: string; role: string; ver: number }, expSeconds: number) {
      return new SignJWT({ role: claims.role, ver: claims.ver })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer('patrol')
        .setIssuedAt(expSeconds - 3600)
        .setExpirationTime(expSeconds)
        .sign(new TextEncoder().encode(jwtSecret));
    },

    destroy: () => dynamo.destroy(),
  };
}

export function decodeClaims(jwt: string): { sub: string; role: string; ver: number; exp: number } {
  return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8'));
}
