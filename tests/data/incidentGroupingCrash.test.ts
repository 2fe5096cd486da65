import { describe, expect, it } from 'vitest';
import { RunStatus } from '../../shared/enums.js';
import { IncidentStatus } from '../../shared/schemas/incidents.js';
import { escalateIncidents } from '../../functions/incidents/escalation.js';
import { recordIncidentResult, type SubtaskEnd } from '../../functions/incidents/service.js';
import { incidentStore, type StoredIncident } from '../../functions/incidents/store.js';
import { runToCrash } from '../../functions/lib/db/faults.js';
import { setupDynamo } from './engine.js';
import { setupQueues } from './checkRig.js';

// Crash points of issue 45's multi-write sequences, on dynalite and, in the fidelity project,
// DynamoDB Local: a parent's open and its children's joins (`incident_correlation`, the third site's
// failure of one check), the parent's resolution with its last child (the same sequence, the pass),
// and an escalation step (`incident_escalation`), each crashed right after every one of its writes
// in turn (lib/db/faults.ts). Recovery is what the product does: the subtask end's follow-up runs
// again (the sweeper's), the next minute tick escalates again. Then there is one parent holding the
// three, each child with one `grouped` entry; one resolution entry and the key freed; one step with
// one `escalated` entry, done.

setupDynamo();
setupQueues();

const { Open, Resolved } = IncidentStatus.values;
const MINUTE = 60_000;
let seq = 0;

const end = (siteId: number, status: number, process: 1 | 2 = 1): SubtaskEnd => ({
  id: 900_000 + ++seq,
  operation_id: 9_000 + seq,
  site_id: siteId,
  process,
  mode: 1,
  status,
  msg: status === RunStatus.values.Failed ? 'Login failed' : 'Passed',
  end_at: Date.now(),
});

const active = () => incidentStore().active();
const eventsOf = async (id: number, kind: string) => (await incidentStore().events(id)).filter((e) => e.kind === kind);

/** Crashes `act` after each write of `sequence` in turn, recovers with `again`, checks; answers the writes. */
async function crashEveryWrite(
  sequence: string,
  scenario: {
    prepare(round: number): Promise<void>;
    act(): Promise<unknown>;
    check(context: string): Promise<void>;
    clean(): Promise<void>;
  },
): Promise<number> {
  for (let n = 1; n < 100; n++) {
    await scenario.prepare(n);
    const { crashed, lastWrite } = await runToCrash({ sequence, afterWrites: n }, scenario.act);
    const context = `crash after write ${n}${crashed ? ` (${lastWrite})` : ' (no crash)'}`;
    await scenario.act();
    await scenario.check(context);
    await scenario.clean();
    if (!crashed) return n - 1;
  }
  throw new Error(`${sequence} did not complete within 100 writes`);
}

describe('correlated incidents at every crash point', () => {
  it('one parent holds the three sites failing one check, each child grouped once', async () => {
    let sites: number[] = [];
    let third: SubtaskEnd;
    const writes = await crashEveryWrite('incident_correlation', {
      async prepare(round) {
        sites = [1, 2, 3].map((n) => round * 10 + n);
        await recordIncidentResult(end(sites[0], RunStatus.values.Failed));
        await recordIncidentResult(end(sites[1], RunStatus.values.Failed));
        third = end(sites[2], RunStatus.values.Failed);
      },
      // The third failure's follow-up; after a crash it runs again, as the sweeper runs it.
      act: () => recordIncidentResult(third),
      async check(context) {
        const open = await active();
        const parents = open.filter((i) => i.cause === 'same_check');
        expect(parents, context).toHaveLength(1);
        const [parent] = parents;
        expect(parent, context).toMatchObject({ children: 3, status: Open, process: 1, mode: 1 });
        expect(parent.child_names, context).toHaveLength(3);
        const children = open.filter((i) => sites.includes(i.site_id as number));
        expect(
          children.map((c) => c.parent_id),
          context,
        ).toEqual([parent.id, parent.id, parent.id]);
        for (const c of children) expect(await eventsOf(c.id, 'grouped'), `${context}: ${c.id}`).toHaveLength(1);
        expect(await incidentStore().parentOf('same_check:1:1'), context).toBe(parent.id);
      },
      async clean() {
        for (const site of sites) await recordIncidentResult(end(site, RunStatus.values.Done));
        expect(await active()).toEqual([]);
      },
    });
    expect(writes).toBeGreaterThanOrEqual(6);
  });

  it('the parent resolves once with its last child, and frees its key', async () => {
    let sites: number[] = [];
    let parentId = 0;
    let last: SubtaskEnd;
    const writes = await crashEveryWrite('incident_correlation', {
      async prepare(round) {
        sites = [1, 2, 3].map((n) => 5_000 + round * 10 + n);
        for (const site of sites) await recordIncidentResult(end(site, RunStatus.values.Failed));
        parentId = (await active()).find((i) => i.cause === 'same_check')?.id ?? 0;
        expect(parentId).toBeGreaterThan(0);
        await recordIncidentResult(end(sites[0], RunStatus.values.Done));
        await recordIncidentResult(end(sites[1], RunStatus.values.Done));
        last = end(sites[2], RunStatus.values.Done);
      },
      act: () => recordIncidentResult(last),
      async check(context) {
        const parent = (await incidentStore().get(parentId)) as StoredIncident;
        expect(parent, context).toMatchObject({ status: Resolved, children: 0 });
        expect(await eventsOf(parentId, 'resolved'), context).toHaveLength(1);
        expect(await incidentStore().parentOf('same_check:1:1'), context).toBeUndefined();
        expect(await active(), context).toEqual([]);
      },
      async clean() {},
    });
    expect(writes).toBeGreaterThanOrEqual(3);
  });
});

describe('an escalation step at every crash point', () => {
  it('is taken once, with one timeline entry, and completed by the next tick', async () => {
    let incidentId = 0;
    let t0 = 0;
    let site = 0;
    const writes = await crashEveryWrite('incident_escalation', {
      async prepare(round) {
        site = 8_000 + round;
        // Another process than the correlation tests', alone: no parent.
        await recordIncidentResult(end(site, RunStatus.values.Failed, 2));
        const [incident] = (await active()).filter((i) => i.site_id === site);
        incidentId = incident.id;
        t0 = incident.opened_at;
      },
      act: () => escalateIncidents(t0 + 15 * MINUTE + 1_000),
      async check(context) {
        const incident = (await incidentStore().get(incidentId)) as StoredIncident;
        expect(incident, context).toMatchObject({ escalation_step: 1, escalation_done: true });
        expect(await eventsOf(incidentId, 'escalated'), context).toHaveLength(1);
        // A tick again changes nothing.
        expect(await escalateIncidents(t0 + 15 * MINUTE + 2_000), context).not.toContain(incidentId);
        expect(await eventsOf(incidentId, 'escalated'), context).toHaveLength(1);
      },
      async clean() {
        await recordIncidentResult(end(site, RunStatus.values.Done, 2));
      },
    });
    expect(writes).toBeGreaterThanOrEqual(3);
  });
});
