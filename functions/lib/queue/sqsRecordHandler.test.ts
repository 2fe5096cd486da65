import type { Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { sqsTestEvent as event } from '../../../tests/helpers/sqsEvent.js';
import { invocationTimeLeft } from '../invocationDeadline.js';
import { logger } from '../logger.js';
import { sqsRecordHandler } from './sqsRecordHandler.js';

const Site = z.object({ site: z.number() });
const Any = z.unknown();

describe('sqsRecordHandler', () => {
  it('reports exactly the records that threw, so the others are not re-run', async () => {
    const handler = sqsRecordHandler(Site, async ({ site }) => {
      if (site === 2) throw new Error('site 2 is down');
    });
    const res = await handler(event(['m1', { site: 1 }], ['m2', { site: 2 }], ['m3', { site: 3 }]));
    expect(res).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }] });
  });

  it("tells the records' code when the invocation times out, from the Lambda context", async () => {
    const left: (number | undefined)[] = [];
    const handler = sqsRecordHandler(Site, async () => {
      left.push(invocationTimeLeft());
    });
    const context = { getRemainingTimeInMillis: () => 42_000 } as Context;
    await handler(event(['m1', { site: 1 }]), context);
    await handler(event(['m2', { site: 2 }]));
    expect(left[0]).toBeGreaterThan(41_000);
    expect(left[0]).toBeLessThanOrEqual(42_000);
    // Without a context (a test, a direct call) there is no end to respect.
    expect(left[1]).toBeUndefined();
  });

  it('reports a body that is not JSON as failed, so it ends in the dead-letter queue', async () => {
    const seen: unknown[] = [];
    const handler = sqsRecordHandler(Any, async (body) => {
      seen.push(body);
    });
    const res = await handler(event(['bad', 'not json'], ['ok', { a: 1 }]));
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'bad' }]);
    expect(seen).toEqual([{ a: 1 }]);
  });

  it('never hands a message of the wrong shape to the processor, logs why, and goes on with the next', async () => {
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => {});
    const seen: number[] = [];
    const handler = sqsRecordHandler(Site, async ({ site }) => {
      seen.push(site);
    });
    const res = await handler(event(['bad', { site: 'all', secret: 'hunter2' }], ['ok', { site: 7 }]));
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'bad' }]);
    expect(seen).toEqual([7]);
    expect(errors).toHaveBeenCalledWith(
      'malformed queue message, left for the dead-letter queue',
      expect.objectContaining({ messageId: 'bad', reason: expect.stringMatching(/site: .*number/i) }),
    );
    expect(JSON.stringify(errors.mock.calls)).not.toContain('hunter2');
    errors.mockRestore();
  });

  it('processes records one after another unless asked to run them in parallel', async () => {
    const run = async (parallel: boolean) => {
      let running = 0;
      let peak = 0;
      const handler = sqsRecordHandler(
        Any,
        async () => {
          running++;
          peak = Math.max(peak, running);
          await new Promise((r) => setTimeout(r, 20));
          running--;
        },
        { parallel },
      );
      await handler(event(['1', {}], ['2', {}], ['3', {}]));
      return peak;
    };
    expect(await run(false)).toBe(1);
    expect(await run(true)).toBe(3);
  });

  it('with serialBy, runs records of one key in order one at a time, and the rest at once', async () => {
    const Msg = z.object({ id: z.string(), chat: z.string().optional() });
    const log: string[] = [];
    let running = 0;
    let peak = 0;
    const handler = sqsRecordHandler(
      Msg,
      async ({ id }) => {
        log.push(`start ${id}`);
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 20));
        running--;
        log.push(`end ${id}`);
        if (id === 'a1') throw new Error('the first of the chat fails');
      },
      { serialBy: (m) => m.chat },
    );
    const res = await handler(
      event(
        ['a1', { id: 'a1', chat: 'a' }],
        ['w1', { id: 'w1' }],
        ['a2', { id: 'a2', chat: 'a' }],
        ['w2', { id: 'w2' }],
        ['bad', 'not json'],
      ),
    );
    // The chat's second message starts after its first ended, though that one failed.
    expect(log.indexOf('start a2')).toBeGreaterThan(log.indexOf('end a1'));
    // a1, w1 and w2 ran together.
    expect(peak).toBe(3);
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: 'a1' }, { itemIdentifier: 'bad' }]);
  });

  it('answers an empty failure list when every record succeeds', async () => {
    const handler = sqsRecordHandler(Any, async () => {});
    expect(await handler(event(['1', {}]))).toEqual({ batchItemFailures: [] });
  });
});
