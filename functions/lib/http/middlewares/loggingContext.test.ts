import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiChain } from '../../../../tests/helpers/apiEvent.js';
import { logger } from '../../logger.js';

/** The JSON log lines written while `run` runs. */
async function logLines(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  // Errors go to stderr, the rest to stdout.
  const spies = [process.stdout, process.stderr].map((stream) =>
    vi.spyOn(stream, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    }),
  );
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return lines
    .flatMap((l) => l.split('\n'))
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

afterEach(() => vi.restoreAllMocks());

describe('loggingContext', () => {
  it('puts the request and trace ids on every log line of the call, and takes them off after', async () => {
    const call = apiChain([], () => {
      logger.info('inside');
      return null;
    });
    let reply: Awaited<ReturnType<typeof call>> | undefined;
    const lines = await logLines(async () => {
      reply = await call({ path: '/x', headers: { 'X-Trace-Id': 'trace-1' } });
      logger.info('outside');
    });
    const inside = lines.find((l) => l.message === 'inside');
    const outside = lines.find((l) => l.message === 'outside');
    expect(inside).toMatchObject({ trace_id: 'trace-1', request_id: reply?.headers['x-request-id'] });
    expect(reply?.headers['x-trace-id']).toBe('trace-1');
    expect(outside).not.toHaveProperty('request_id');
    expect(outside).not.toHaveProperty('trace_id');
  });

  it('takes the ids off after a failed call too, and makes a trace id when none came', async () => {
    const call = apiChain([], () => {
      throw new Error('boom');
    });
    const lines = await logLines(async () => {
      const res = await call({ path: '/x' });
      expect(res.headers['x-trace-id']).toMatch(/^[0-9a-f-]{36}$/);
      logger.info('outside');
    });
    expect(lines.find((l) => l.message === 'unhandled error')).toHaveProperty('request_id');
    expect(lines.find((l) => l.message === 'outside')).not.toHaveProperty('request_id');
  });
});
