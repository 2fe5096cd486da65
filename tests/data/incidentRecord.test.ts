// A subtask's end on its incident is a follow-up (functions/incidents/service.ts recordIncidentResult):
// after a crash, or under load, the inline run and the sweeper's can run at the same time. Each end
// must still be one timeline entry and one failure on its incident.
import { describe, expect, it } from 'vitest';
import { RunStatus } from '../../shared/enums.js';
import { recordIncidentResult, type SubtaskEnd } from '../../functions/incidents/service.js';
import { incidentStore } from '../../functions/incidents/store.js';
import { setupDynamo } from './engine.js';

setupDynamo();

const end = (id: number, siteId: number, status: number): SubtaskEnd => ({
  id,
  operation_id: 5_000 + id,
  site_id: siteId,
  process: 1,
  mode: 1,
  status,
  msg: status === RunStatus.values.Failed ? 'Login failed' : '',
  end_at: Date.now(),
});

const incidentOf = async (siteId: number) => {
  const open = (await incidentStore().unresolved()).filter((i) => i.site_id === siteId);
  expect(open).toHaveLength(1);
  return open[0];
};

describe('a subtask end recorded twice at once', () => {
  it('is one timeline entry and one failure, for a failure and for the pass that resolves it', async () => {
    for (let site = 1; site <= 6; site++) {
      const failure = end(100 + site, site, RunStatus.values.Failed);
      await Promise.all([recordIncidentResult(failure), recordIncidentResult(failure)]);
      const incident = await incidentOf(site);
      expect(incident.failures, `site ${site}`).toBe(1);
      let timeline = await incidentStore().events(incident.id);
      expect(
        timeline.filter((e) => e.subtask_id === failure.id),
        `site ${site}`,
      ).toHaveLength(1);

      const pass = end(200 + site, site, RunStatus.values.Done);
      await Promise.all([recordIncidentResult(pass), recordIncidentResult(pass)]);
      timeline = await incidentStore().events(incident.id);
      expect(
        timeline.filter((e) => e.subtask_id === pass.id),
        `site ${site}`,
      ).toHaveLength(1);
      expect((await incidentStore().unresolved()).filter((i) => i.site_id === site)).toEqual([]);
    }
  });
});
