import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';

// The shared stack runs as `npm start` does (tests/helpers/globalStack.ts), with ADMIN_PASSWORD
// set. Its checker polls the check queue from a process of its own, found here by the queue
// endpoint in its environment.

function environ(pid: string): Record<string, string> | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/environ`, 'utf8');
    return Object.fromEntries(
      raw
        .split('\0')
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    );
  } catch {
    return undefined; // gone, or another user's
  }
}
function cmdline(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

describe('the local checker process', () => {
  it('holds the engines and the secrets key file, but neither the JWT secret nor the admin password', () => {
    const { env } = inject('stack');
    const processes = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map((pid) => ({ pid, cmd: cmdline(pid), env: environ(pid) }))
      .filter((p) => p.env?.SQS_ENDPOINT === env.SQS_ENDPOINT && p.env?.DYNAMO_ENDPOINT === env.DYNAMO_ENDPOINT);
    const checkers = processes.filter((p) => p.cmd.includes('consumerProcess') && p.cmd.includes('"checker"'));
    expect(checkers, processes.map((p) => p.cmd).join('\n')).toHaveLength(1);
    const checker = checkers[0].env as Record<string, string>;
    expect(checker).not.toHaveProperty('JWT_SECRET');
    expect(checker).not.toHaveProperty('ADMIN_PASSWORD');
    expect(checker).toMatchObject({
      TABLE_NAME: env.TABLE_NAME,
      CHECK_QUEUE_URL: env.CHECK_QUEUE_URL,
      SECRETS_KEY_FILE: env.SECRETS_KEY_FILE,
      ALLOWED_PRIVATE_HOSTS: env.ALLOWED_PRIVATE_HOSTS,
    });
  });
});
