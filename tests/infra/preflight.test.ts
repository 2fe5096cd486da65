import {
  GetAWSDefaultServiceQuotaCommand,
  GetServiceQuotaCommand,
  NoSuchResourceException,
  ServiceQuotasClient,
} from '@aws-sdk/client-service-quotas';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LAMBDAS } from '../../functions/registry.js';
import { API_HEADROOM, LAMBDA_CONCURRENCY, main, stageNeed } from '../../scripts/ops/preflight.js';
import { testStage } from './synthStack.js';

// npm run preflight: the account's Lambda concurrency quota against what the stage may run at once,
// read from a mocked Service Quotas (the real one needs an account).

const quotas = mockClient(ServiceQuotasClient);
const printed: string[] = [];
beforeEach(() => {
  quotas.reset();
  printed.length = 0;
  for (const stream of ['log', 'error'] as const)
    vi.spyOn(console, stream).mockImplementation((line: string) => void printed.push(line));
});
afterEach(() => vi.restoreAllMocks());

const withQuota = (value: number) =>
  quotas.on(GetServiceQuotaCommand, LAMBDA_CONCURRENCY).resolves({ Quota: { ...LAMBDA_CONCURRENCY, Value: value } });

describe('npm run preflight', () => {
  it("counts prod's queue consumers at their stage ceilings (34), one for each other function and the API's headroom", () => {
    const need = stageNeed(testStage('prod'));
    expect(need.consumers).toEqual([
      { name: 'checker', concurrency: 8 },
      { name: 'followUpApplier', concurrency: 2 },
      { name: 'bankPoller', concurrency: 20 },
      { name: 'notifier', concurrency: 4 },
    ]);
    expect(need.consumers.reduce((n, c) => n + c.concurrency, 0)).toBe(34);
    const others = LAMBDAS.filter(
      (d) =>
        d.trigger.type !== 'sqs' && d.trigger.type !== 'http' && (d.trigger.type !== 'startup' || d.trigger.inCloud),
    );
    expect(need.others).toBe(others.length);
    expect(need.total).toBe(34 + others.length + API_HEADROOM);
  });

  it('refuses a quota of 10 with exit 1, saying what the stage needs and how to ask for more', async () => {
    withQuota(10);
    expect(await main(['--stage', 'prod'], new ServiceQuotasClient({ region: 'eu-central-1' }))).toBe(1);
    const text = printed.join('\n');
    expect(text).toContain("Stage 'prod' may run");
    expect(text).toContain('quota in this region: 10');
    expect(text).toMatch(/Refused: \d+ > 10/);
    expect(text).toContain(
      'aws service-quotas request-service-quota-increase --service-code lambda --quota-code L-B99A9384',
    );
  });

  it('passes a quota of 1,000 with exit 0', async () => {
    withQuota(1000);
    expect(await main(['--stage', 'prod'], new ServiceQuotasClient({ region: 'eu-central-1' }))).toBe(0);
    expect(printed.join('\n')).toMatch(/OK: the quota holds the stage/);
  });

  it("reads AWS's default when the account never had the quota applied", async () => {
    quotas.on(GetServiceQuotaCommand).rejects(new NoSuchResourceException({ message: 'none', $metadata: {} }));
    quotas.on(GetAWSDefaultServiceQuotaCommand).resolves({ Quota: { Value: 1000 } });
    expect(await main(['--stage', 'dev'], new ServiceQuotasClient({ region: 'eu-central-1' }))).toBe(0);
  });

  it('refuses a stage cdk.json does not define, before asking AWS', async () => {
    await expect(main(['--stage', 'staging'], new ServiceQuotasClient({}))).rejects.toThrow(/Unknown stage 'staging'/);
    expect(quotas.calls()).toHaveLength(0);
  });
});
