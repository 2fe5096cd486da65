import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weekStampAt } from '../../shared/autoCheckSchedule.js';
import { Process, TestMode } from '../../shared/enums.js';
import { emptyListQuery } from '../../shared/listQuery.js';
import { MISSED_AFTER_MS, runRuleSlot } from '../../functions/autoCheck/runRuleSlot.js';
import { ruleStore } from '../../functions/autoCheck/store.js';
import { checkStore } from '../../functions/checks/store.js';
import { runToCrash } from '../../functions/lib/db/faults.js';
import { sweepFollowUps } from '../../functions/lib/db/outbox.js';
import { resetSecretKeys } from '../../functions/lib/secrets/index.js';
import { memorySiteStore } from '../../functions/sites/memorySiteStore.js';
import { createSite } from '../../functions/sites/service.js';
import { useSiteStore } from '../../functions/sites/store.js';
import { getSystemConfig } from '../../functions/systemConfig/getSystemConfig.js';
import { setupQueues } from './checkRig.js';
import { setupDynamo } from './engine.js';

// Crash points of a rule slot's run (issue 25): the slot claimed, the check started (its operation
// row carries the slot's log and the claim's end as follow-ups), the log, each crashed right after
// every write in turn (lib/db/faults.ts). Recovery is what the product does: the follow-up sweeper,
// then a later delivery of the same firing (the scheduler's retry, the local catch-up). Then the
// firing has exactly one log row, which says what happened: the check it started (with its event),
// or missed when nothing was started; never a check without its log, never two logs or two checks.

setupDynamo();
setupQueues();

let dir = '';
let siteId = 0;
let zone = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'patrol-rule-slot-crash-'));
  process.env.SECRETS_KEY_FILE = join(dir, 'secrets.key');
  resetSecretKeys();
  useSiteStore(memorySiteStore());
  siteId = (await createSite({ name: 'Alpha', url: 'https://alpha.test', accounts: [{ user: 'a1', pwd: 'p1' }] })).id;
  zone = (await getSystemConfig()).time_zone;
});
afterAll(async () => {
  useSiteStore(undefined);
  await rm(dir, { recursive: true, force: true });
});

const pad = (n: number) => String(n).padStart(2, '0');

/** A rule with one slot: the one that fires at `slotAt`. */
async function ruleFiringAt(slotAt: number, n: number) {
  const weekStamp = weekStampAt(slotAt, zone);
  const day = (Math.floor(weekStamp / 86_400) + 1) as 1 | 2 | 3 | 4 | 5 | 6 | 7;
  const time = `${pad(Math.floor((weekStamp % 86_400) / 3600))}:${pad(Math.floor((weekStamp % 3600) / 60))}`;
  const rule = await ruleStore().createRule({
    name: `Crash ${n}`,
    sites: [siteId],
    checkpoints: { points: [{ process: Process.values.Login, modes: [TestMode.values.D4] }] },
    times: [{ day, times: [time] }],
    enable: true,
    creator_id: null,
    schedule_since: slotAt - 120_000,
  });
  return { rule, event: { ruleId: rule.id, weekStamp, slotAt } };
}

describe('a crash at any write of a rule slot leaves one log that says what happened', () => {
  it('slot claimed, check started, log written: every crash point', async () => {
    for (let n = 1; n < 60; n++) {
      const now = Date.now();
      const { rule, event } = await ruleFiringAt(now - 1_000, n);
      const { crashed, lastWrite } = await runToCrash({ sequence: 'rule_slot', afterWrites: n }, () =>
        runRuleSlot(event, now),
      );
      const context = `rule_slot, crash after write ${n}${crashed ? ` (${lastWrite})` : ' (no crash)'}`;
      await sweepFollowUps({ before: Date.now() + 1 });
      // A later delivery of the same firing, once a dead runner's claim has expired.
      const later = await runRuleSlot(event, now + MISSED_AFTER_MS + 60_000);

      const logs = (await ruleStore().listLogs(emptyListQuery({ page_size: 0 }), rule.id)).result;
      expect(logs, `${context}: log rows of the firing`).toHaveLength(1);
      const ops = await checkStore().operations.all({ scope: { rule_id: rule.id } });
      expect(ops.length, `${context}: checks started`).toBeLessThanOrEqual(1);
      const [op] = ops;
      if (op) {
        // Started: the log names the check, the claim is kept for good, the event written once.
        expect(logs[0], `${context}: log`).toMatchObject({ success: true, missed: false, operation_id: op.id });
        expect(later.status, `${context}: a later delivery`).toBe('duplicate');
        const events = await checkStore().engineEvents.all({ scope: { operation_id: op.id } });
        const started = events.filter((e) => e.message.startsWith(`Auto-check rule ${rule.id} `));
        expect(started, `${context}: the rule's event`).toHaveLength(1);
      } else {
        // Nothing started before the crash: the later delivery finds the slot too late and logs it missed.
        expect(logs[0], `${context}: log`).toMatchObject({ success: false, missed: true, operation_id: null });
        expect(later.status, `${context}: a later delivery`).toBe('missed');
      }
      const left = await sweepFollowUps({ before: Date.now() + 1 });
      expect(left, `${context}: follow-ups still pending`).toEqual({ rows: 0, applied: 0, failed: 0 });
      if (!crashed) {
        expect(n, 'writes of a slot that starts a check').toBeGreaterThan(3);
        return;
      }
    }
    throw new Error('rule_slot did not complete within 60 writes');
  });
});
