import { emptyListQuery, type ListQuery } from '../../shared/listQuery.js';
import { field, type StoredOf } from '../../shared/listFields.js';
import { type IncidentEvent, IncidentStatus, incidentListFields } from '../../shared/schemas/incidents.js';
import { ConditionFailedError, defineEntity, type ListOutcome, type UpdateOptions } from '../lib/db/entity.js';
import { newIdOf, nextId } from '../lib/db/ids.js';
import { createRepository, type DynamoRepository } from '../lib/db/repository.js';
import { claimIfFree, claimOnce, findUniqueClaim, findUniqueOwner, releaseUnique } from '../lib/db/unique.js';
import { onConditionFailure } from '../lib/db/conditionFailure.js';
import { IncidentNotFoundError } from './errors.js';

/** An incident as stored: the row plus its Telegram message and reminder bookkeeping. */
export type StoredIncident = StoredOf<
  typeof incidentListFields,
  {
    /** `${site}:${process}:${mode}`: the one open incident of that key holds its unique claim. */
    open_key: string;
    /** The check chat and message; message 0 while its first send is under way (tg_claimed_at). */
    tg_chat_id?: string | null;
    tg_message_id?: number | null;
    tg_claimed_at?: number | null;
    /** The text last put on the message, so an unchanged incident is not edited again. */
    tg_text?: string | null;
    /** The resolution's reply went out. */
    tg_resolved_sent?: boolean;
    /** The minute of the last reminder sent (a second delivery of its queue message sends nothing). */
    tg_reminded_at?: number | null;
    /** The last reminder (or the opening, before any). */
    last_reminded_at?: number | null;
    /** A re-run is in flight until then (ms; 0 when none): one at a time per incident. */
    rerun_until?: number;
    /** The operation of the re-run in flight: its end releases `rerun_until` early. */
    rerun_operation_id?: number;
    /** The maintenance window its button started: a press again extends it instead of adding one. */
    maintenance_id?: number;
    /** A bank incident (issue 45): what a `kind` filter of `check` leaves out (rows before it have no kind). */
    is_bank?: boolean;
    /** A bank rule incident's chat (the rule's; absent: the bank chat). */
    chat_id?: string | null;
    /** A parent's (issue 45, correlation.ts): its unresolved children's names, as its message lists them. */
    child_names?: string[];
    /** A checker parent's: the control site's incident; failures join it while that one is unresolved. */
    control_incident_id?: number;
    /**
     * Escalation (issue 45, escalation.ts): the last step taken (1 the escalation chat, 2 the super
     * users), whether its timeline entry and sync are done (a crash between is completed by the next
     * tick), and since when the clock runs (the opening, or a snooze's end).
     */
    escalation_step?: number;
    escalation_done?: boolean;
    escalation_from?: number;
    /** The escalation messages sent, one per (step, chat), so a sync run again sends none twice. */
    tg_escalated?: { step: number; chat_id: string; message_id: number }[];
  }
>;

export type StoredIncidentEvent = Omit<IncidentEvent, 'actor'> & { actor: { id: number; nickname: string } | null };

/** Where incidents and their timelines live; the service depends on this port. */
export interface IncidentStore {
  newId(): Promise<number>;
  /** The open incident of a (site, process, mode), if any. */
  openId(openKey: string): Promise<number | undefined>;
  /** Takes the open slot of a key for a new incident; false when another incident holds it. */
  claimOpen(openKey: string, id: number): Promise<boolean>;
  releaseOpen(openKey: string, id: number): Promise<void>;
  create(row: Omit<StoredIncident, 'id' | 'created_at'>, id: number): Promise<StoredIncident>;
  get(id: number): Promise<StoredIncident | undefined>;
  list(query: ListQuery): Promise<ListOutcome<StoredIncident>>;
  /** Throws IncidentNotFoundError, or ConditionFailedError when `expect` no longer holds. */
  update(id: number, patch: Partial<StoredIncident>, options?: UpdateOptions): Promise<StoredIncident>;
  /** The failure of a subtask, counted once however often this runs (atomically, guarded by the subtask). */
  countFailure(id: number, subtaskId: number): Promise<StoredIncident>;
  /** Drops the subtask's guard once its timeline entry marks the count (an incident fails without end). */
  settleFailure(id: number, subtaskId: number): Promise<void>;
  /** A failure named by `cause` (a bank incident's), counted once however often this runs; then `settleCause`. */
  countCause(id: number, cause: string): Promise<StoredIncident>;
  settleCause(id: number, cause: string): Promise<void>;
  /**
   * Marks `cause` (a bank account's transition, bankIncidents.ts) as recorded on `incidentId`, as
   * claimSubtask does a subtask's end: the incident holding the mark, `again`, and its entry's id.
   */
  claimCause(
    cause: string,
    incidentId: number,
  ): Promise<{ incidentId: number; again: boolean; eventId: number | undefined }>;
  /** Whether the incident's timeline has the entry of this id. */
  hasEvent(incidentId: number, eventId: number): Promise<boolean>;
  /** Open and snoozed incidents: the ones reminders and snooze ends look at. */
  unresolved(): Promise<StoredIncident[]>;
  /** Every incident not resolved (acknowledged ones too): what correlation and /status look at. */
  active(): Promise<StoredIncident[]>;
  /** The open parent of a correlation key (`${cause}:${key}`), if any; claimed and released like `open`. */
  parentOf(parentKey: string): Promise<number | undefined>;
  claimParent(parentKey: string, id: number): Promise<boolean>;
  releaseParent(parentKey: string, id: number): Promise<void>;

  /**
   * Marks a subtask's end as recorded on `incidentId`: the incident that holds the mark (another one
   * when an earlier run of the same end made it), `again` when one had, and the id of the subtask's
   * timeline entry, taken before the mark and named by it, so every run writes that one entry
   * (undefined on a mark made before the mark named it).
   */
  claimSubtask(
    subtaskId: number,
    incidentId: number,
  ): Promise<{ incidentId: number; again: boolean; eventId: number | undefined }>;
  /** Whether the incident's timeline has the subtask's entry (a run again after a crash writes a missing one). */
  hasSubtaskEvent(incidentId: number, subtaskId: number): Promise<boolean>;
  /** A timeline entry; with `id`, written once under that id however often this runs. */
  addEvent(
    event: Omit<StoredIncidentEvent, 'id' | 'created_at'>,
    id?: number,
  ): Promise<StoredIncidentEvent | undefined>;
  events(incidentId: number): Promise<StoredIncidentEvent[]>;
  /** Whether any subtask of the operation was recorded on an incident. */
  touchedByOperation(operationId: number): Promise<boolean>;
}

export const incidentEntity = defineEntity<StoredIncident>({
  type: 'incident',
  // `is_bank` serves the `kind` filter: a missing flag reads false, as rows stored before issue 45 are checks'.
  fields: { ...incidentListFields, is_bank: field.boolean({ filter: 'bounded' }) },
  keys: ['site_id', 'status'],
});

const incidentEventEntity = defineEntity<StoredIncidentEvent>({
  type: 'incident_event',
  fields: { id: 'number', created_at: 'datetime', incident_id: 'number', operation_id: 'number' },
  keys: ['incident_id', 'operation_id'],
  retention: 'events',
});

export function dynamoIncidentStore(
  incidents: DynamoRepository<StoredIncident> = createRepository(incidentEntity),
  events: DynamoRepository<StoredIncidentEvent> = createRepository(incidentEventEntity),
): IncidentStore {
  const onIncident = <R>(id: number, write: Promise<R>) =>
    onConditionFailure(write, () => new IncidentNotFoundError(id));
  return {
    newId: () => nextId(incidentEntity.type),
    openId: (openKey) => findUniqueOwner(incidentEntity.type, 'open', openKey),
    claimOpen: (openKey, id) => claimIfFree(incidentEntity.type, 'open', openKey, id),
    async releaseOpen(openKey, id) {
      await releaseUnique(incidentEntity.type, 'open', openKey, id);
    },
    create: (row, id) => incidents.create(row, { id }),
    get: (id) => incidents.get(id),
    list: (query) => incidents.list(query),
    // An `expect` that fails is the caller's race to handle, not a missing incident.
    update: (id, patch, options) =>
      options?.expect ? incidents.update(id, patch, options) : onIncident(id, incidents.update(id, patch)),
    settleFailure: (id, subtaskId) => onIncident(id, incidents.forgetCause(id, `subtask:${subtaskId}`)),
    countFailure: (id, subtaskId) =>
      onIncident(id, incidents.add(id, { failures: 1 }, { once: `subtask:${subtaskId}` })),
    countCause: (id, cause) => onIncident(id, incidents.add(id, { failures: 1 }, { once: `cause:${cause}` })),
    settleCause: (id, cause) => onIncident(id, incidents.forgetCause(id, `cause:${cause}`)),
    async claimCause(cause, incidentId) {
      const eventId = await newIdOf(incidentEventEntity);
      if (await claimOnce(incidentEventEntity.type, 'cause', cause, incidentId, { event_id: eventId }))
        return { incidentId, again: false, eventId };
      const claim = await findUniqueClaim(incidentEventEntity.type, 'cause', cause);
      return { incidentId: claim?.owner ?? incidentId, again: true, eventId: claim?.also.event_id };
    },
    async hasEvent(incidentId, eventId) {
      return (await events.get(eventId))?.incident_id === incidentId;
    },
    async active() {
      const statuses = [IncidentStatus.values.Open, IncidentStatus.values.Acknowledged, IncidentStatus.values.Snoozed];
      return (await Promise.all(statuses.map((status) => incidents.all({ scope: { status } })))).flat();
    },
    parentOf: (parentKey) => findUniqueOwner(incidentEntity.type, 'parent', parentKey),
    claimParent: (parentKey, id) => claimIfFree(incidentEntity.type, 'parent', parentKey, id),
    async releaseParent(parentKey, id) {
      await releaseUnique(incidentEntity.type, 'parent', parentKey, id);
    },
    async unresolved() {
      const [open, snoozed] = await Promise.all([
        incidents.all({ scope: { status: IncidentStatus.values.Open } }),
        incidents.all({ scope: { status: IncidentStatus.values.Snoozed } }),
      ]);
      return [...open, ...snoozed];
    },

    async claimSubtask(subtaskId, incidentId) {
      // Two runs of the same end at once (the inline follow-up and the sweeper's) both write the
      // entry: under the id the mark names, the second write finds it and adds nothing.
      const eventId = await newIdOf(incidentEventEntity);
      if (await claimOnce(incidentEventEntity.type, 'subtask', String(subtaskId), incidentId, { event_id: eventId }))
        return { incidentId, again: false, eventId };
      const claim = await findUniqueClaim(incidentEventEntity.type, 'subtask', String(subtaskId));
      return { incidentId: claim?.owner ?? incidentId, again: true, eventId: claim?.also.event_id };
    },
    async hasSubtaskEvent(incidentId, subtaskId) {
      return (await events.all({ scope: { incident_id: incidentId } })).some((e) => e.subtask_id === subtaskId);
    },
    async addEvent(event, id) {
      if (id === undefined) return events.create(event);
      try {
        return await events.create(event, { id });
      } catch (error) {
        if (error instanceof ConditionFailedError) return undefined;
        throw error;
      }
    },
    events: (incidentId) => events.all({ scope: { incident_id: incidentId } }),
    async touchedByOperation(operationId) {
      const page = await events.list(emptyListQuery({ page_size: 1 }), { scope: { operation_id: operationId } });
      return page.result.length > 0;
    },
  };
}

let store: IncidentStore | undefined;
export function incidentStore(): IncidentStore {
  store ??= dynamoIncidentStore();
  return store;
}
