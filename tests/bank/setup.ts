import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { registerBankDriver } from '../../functions/bank/drivers/bankDriverRegistry.js';
import { usePollSender } from '../../functions/bank/pollSender.js';
import { useBankClock } from '../../functions/bank/service.js';
import type { PollMessage } from '../../functions/bank/pollMessage.js';
import { resetSecretKeys } from '../../functions/lib/secrets/index.js';
import { setupDynamo } from '../data/engine.js';
import { FakeBank, testClock } from './fakeBank.js';

/**
 * A bank test file: its own dynalite (the real local engine), a secrets key, a fake bank behind
 * the driver port, a hand-moved clock, and the polls the dispatcher sends collected in `sent`.
 */
export function setupBankTest(start: number) {
  setupDynamo();
  const bank = new FakeBank();
  const clock = testClock(start);
  const sent: { polls: PollMessage[]; now: number }[] = [];
  let unregister: (() => void) | undefined;
  beforeAll(() => {
    process.env.SECRETS_KEY_FILE = join(mkdtempSync(join(tmpdir(), 'patrol-bank-keys-')), 'secrets.key');
    process.env.BANK_PORTAL_KBZ = 'http://fake-kbz.invalid';
    resetSecretKeys();
    unregister = registerBankDriver({ driver: bank, matches: () => true });
    useBankClock(clock);
    usePollSender(async (polls, now) => {
      sent.push({ polls, now });
    });
  });
  afterAll(() => {
    unregister?.();
    useBankClock(undefined);
    usePollSender(undefined);
  });
  return { bank, clock, sent };
}
