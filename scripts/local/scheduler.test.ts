import type { ScheduledEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { lambdaContext } from './lambdaContext.js';
import { startSchedule } from './scheduler.js';

const context = () => lambdaContext({ name: 'tick', memoryMb: 128, timeoutSeconds: 5 }, 'us-east-1');

describe('the local schedule', () => {
  it('invokes the handler every period with a scheduled event and never overlaps a slow run', async () => {
    const events: ScheduledEvent[] = [];
    let running = 0;
    let peak = 0;
    const schedule = startSchedule({
      name: 'tick',
      everySeconds: 0.05,
      region: 'us-east-1',
      context,
      handler: async (event) => {
        events.push(event);
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 120));
        running--;
      },
    });
    await new Promise((r) => setTimeout(r, 700));
    expect(await schedule.stop()).toBe(true);

    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(peak).toBe(1);
    expect(running).toBe(0);
    expect(events[0]).toMatchObject({ source: 'aws.events', 'detail-type': 'Scheduled Event' });
    expect(events[0].resources[0]).toMatch(/:rule\/patrol-tick$/);
  });

  it('keeps running after a failed invocation', async () => {
    let calls = 0;
    const schedule = startSchedule({
      name: 'flaky',
      everySeconds: 0.05,
      region: 'us-east-1',
      context,
      onError: () => {},
      handler: async () => {
        calls++;
        throw new Error('boom');
      },
    });
    await new Promise((r) => setTimeout(r, 300));
    await schedule.stop();
    expect(calls).toBeGreaterThanOrEqual(3);
  });
});
