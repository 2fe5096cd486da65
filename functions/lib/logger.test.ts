import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `body` in a fresh Node process with the real logger and returns the JSON lines it printed. */
function logLinesOf(body: string): Record<string, unknown>[] {
  const script = `import { logger, logSecurityEvent } from './functions/lib/logger.ts';\n${body}`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'INFO', POWERTOOLS_DEV: '', AWS_LAMBDA_FUNCTION_NAME: '' },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(run.stderr);
  // Warnings and errors go to stderr, the rest to stdout: both are the log.
  return `${run.stdout}\n${run.stderr}`
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

describe('logger', () => {
  it('redacts secret-shaped keys in nested objects, arrays and errors, and keeps the rest', () => {
    const [line, raw] = [
      logLinesOf(`
        const error = Object.assign(new Error('login failed'), { password: 'err-pass-1', user: 'bob' });
        logger.info('saving account', {
          account: { user: 'bob', password: 'hunter2-pass', nested: { api_key: 'AKIA-secret-key' } },
          sessions: [{ token: 'tok-123456', id: 1 }],
          Authorization: 'Bearer abc.def.ghi',
          error,
        });
      `),
      ['hunter2-pass', 'AKIA-secret-key', 'tok-123456', 'abc.def.ghi', 'err-pass-1'],
    ];
    expect(line).toHaveLength(1);
    const text = JSON.stringify(line[0]);
    for (const secret of raw) expect(text).not.toContain(secret);
    expect(line[0]).toMatchObject({
      message: 'saving account',
      account: { user: 'bob', password: '[redacted]', nested: { api_key: '[redacted]' } },
      sessions: [{ token: '[redacted]', id: 1 }],
      Authorization: '[redacted]',
      error: { message: 'login failed', password: '[redacted]', user: 'bob' },
    });
  });

  it('writes a security event with who, what, from where and the outcome', () => {
    const [line] = logLinesOf(`
      logSecurityEvent({ event: 'login', actor: 'alice', client_ip: '198.51.100.4', outcome: 'failure', pwd: 'typed-pass-9' });
    `);
    expect(line).toMatchObject({
      level: 'WARN',
      message: 'security event',
      security: true,
      event: 'login',
      actor: 'alice',
      client_ip: '198.51.100.4',
      outcome: 'failure',
      pwd: '[redacted]',
    });
  });
});
