import { IncidentStatus } from '../../shared/schemas/incidents.js';
import { ConditionFailedError } from '../lib/db/entity.js';
import { logger } from '../lib/logger.js';
import { type IncidentStore, incidentStore, type StoredIncident } from './store.js';

const { Resolved } = IncidentStatus.values;

/** The unique claim an incident holds: a key's one open incident, or a cause's one open parent. */
export type IncidentClaim = 'open' | 'parent';

const claims = (store: IncidentStore) => ({
  open: { owner: store.openId, claim: store.claimOpen, release: store.releaseOpen },
  parent: { owner: store.parentOf, claim: store.claimParent, release: store.releaseParent },
});

/**
 * The unresolved incident holding `key`'s claim, or a new one, made by `row(id)`, that takes it. Of two
 * writers at once, one claims the key and the other joins its incident. A claim still held by a
 * resolved incident (its resolution stopped before freeing the key; its run again frees it too) is
 * freed here. A claim left by a writer that stopped between the claim and the row gets its row now.
 * Check incidents, bank incidents and parents open this one way (service.ts, bankIncidents.ts,
 * correlation.ts).
 */
export async function incidentHolding(
  kind: IncidentClaim,
  key: string,
  row: (id: number) => Promise<Omit<StoredIncident, 'id' | 'created_at'>> | Omit<StoredIncident, 'id' | 'created_at'>,
): Promise<{ incident: StoredIncident; created: boolean }> {
  const store = incidentStore();
  const claim = claims(store)[kind];
  for (let attempt = 0; attempt < 3; attempt++) {
    let id = await claim.owner(key);
    if (id === undefined) {
      const fresh = await store.newId();
      if (!(await claim.claim(key, fresh))) continue;
      id = fresh;
    }
    const existing = await store.get(id);
    if (existing?.status === Resolved) {
      await claim.release(key, id);
      continue;
    }
    if (existing) return { incident: existing, created: false };
    try {
      return { incident: await store.create(await row(id), id), created: true };
    } catch (error) {
      // Created meanwhile by the other holder of that claim (a run again): read it on the next round.
      if (!(error instanceof ConditionFailedError)) throw error;
      logger.info('incident created meanwhile', { incident_id: id, key });
    }
  }
  throw new Error(`No open incident could be found or made for ${key}`);
}
