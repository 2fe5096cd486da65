import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { METRICS_NAMESPACE, recordMetric, resetMetrics } from './metrics.js';

/** The EMF lines written to stdout while `act` runs, parsed. */
function emfLines(act: () => void): Record<string, unknown>[] {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    act();
  } finally {
    spy.mockRestore();
  }
  return lines
    .join('')
    .split('\n')
    .filter((l) => l.includes('_aws'))
    .map((l) => JSON.parse(l));
}

const saved = { ...process.env };
beforeEach(() => resetMetrics());
afterEach(() => {
  process.env = { ...saved };
  resetMetrics();
});

describe('recordMetric', () => {
  it('writes one EMF line per call in the Patrol namespace, with the stage as the only dimension', () => {
    process.env.POWERTOOLS_METRICS_NAMESPACE = METRICS_NAMESPACE;
    process.env.PATROL_STAGE = 'prod';
    process.env.POWERTOOLS_SERVICE_NAME = 'patrol-bankPoller';
    delete process.env.POWERTOOLS_DEV;
    delete process.env.POWERTOOLS_METRICS_DISABLED;

    const [lag, failed] = emfLines(() => {
      recordMetric('BankPollLag', 1234);
      recordMetric('SubtasksFailed');
    });

    expect(lag).toMatchObject({
      _aws: {
        CloudWatchMetrics: [
          { Namespace: 'Patrol', Dimensions: [['stage']], Metrics: [{ Name: 'BankPollLag', Unit: 'Milliseconds' }] },
        ],
      },
      stage: 'prod',
      BankPollLag: 1234,
    });
    expect(lag).not.toHaveProperty('service');
    expect(failed).toMatchObject({ SubtasksFailed: 1 });
  });

  it('writes nothing where no namespace is configured (the local stack, tests)', () => {
    delete process.env.POWERTOOLS_METRICS_NAMESPACE;
    expect(emfLines(() => recordMetric('TelegramSendsFailed'))).toEqual([]);
  });
});
