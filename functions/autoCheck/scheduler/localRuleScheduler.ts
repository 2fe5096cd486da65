import { nextSlotInstant, slotsOf } from '../../../shared/autoCheckSchedule.js';
import type { RuleScheduler, ScheduledRule } from './ruleScheduler.js';

export interface SlotFiring {
  ruleId: number;
  weekStamp: number;
  /** The slot's instant, epoch ms. */
  slotAt: number;
}

interface PlannedSlot {
  ruleId: number;
  weekStamp: number;
  /** The slot's first instant after `after`; computed when first asked. */
  next?: number;
  after?: number;
}

/**
 * The local adapter: an in-memory plan of the enabled rules' slots. The API writes it through the
 * port when it runs in the same process as the local timer; the timer also reloads it from the
 * store (a rule written by another process appears within a reload period). Each slot keeps its
 * next instant (from the shared schedule module, in the zone in force), so a tick compares
 * numbers and asks the zone data only for the slots that fire; a zone change drops them all.
 */
export class LocalRuleScheduler implements RuleScheduler {
  private readonly plan = new Map<number, { key: string; slots: PlannedSlot[] }>();
  private currentZone = 'UTC';

  get zone(): string {
    return this.currentZone;
  }

  private setZone(zone: string): void {
    if (zone === this.currentZone) return;
    this.currentZone = zone;
    for (const entry of this.plan.values()) for (const slot of entry.slots) slot.next = slot.after = undefined;
  }

  async syncRule(rule: ScheduledRule, zone: string): Promise<void> {
    this.setZone(zone);
    if (!rule.enable || !rule.times.length) {
      this.plan.delete(rule.id);
      return;
    }
    // An unchanged rule keeps its computed instants (the timer reloads every rule each minute).
    const key = JSON.stringify(rule.times);
    if (this.plan.get(rule.id)?.key === key) return;
    this.plan.set(rule.id, {
      key,
      slots: slotsOf(rule.times).map((s) => ({ ruleId: rule.id, weekStamp: s.weekStamp })),
    });
  }

  async removeRule(rule: ScheduledRule): Promise<void> {
    this.plan.delete(rule.id);
  }

  async resyncAll(rules: readonly ScheduledRule[], zone: string): Promise<void> {
    this.setZone(zone);
    const keep = new Set<number>();
    for (const rule of rules) {
      await this.syncRule(rule, zone);
      keep.add(rule.id);
    }
    for (const id of [...this.plan.keys()]) if (!keep.has(id)) this.plan.delete(id);
  }

  /** Rules in the plan, for tests and the bench. */
  get size(): number {
    return this.plan.size;
  }

  /** Every slot firing in (from, to], in time order. */
  due(from: number, to: number): SlotFiring[] {
    const out: SlotFiring[] = [];
    for (const { slots } of this.plan.values()) {
      for (const slot of slots) {
        // Computed for a later start than asked (a clock set back): compute again.
        if (slot.next === undefined || slot.after === undefined || slot.after > from) {
          slot.after = from;
          slot.next = nextSlotInstant(slot.weekStamp, this.currentZone, from)?.getTime() ?? Number.POSITIVE_INFINITY;
        }
        while (slot.next <= to) {
          // A firing at or before `from` belonged to an earlier call's window.
          if (slot.next > from) out.push({ ruleId: slot.ruleId, weekStamp: slot.weekStamp, slotAt: slot.next });
          slot.after = slot.next;
          slot.next =
            nextSlotInstant(slot.weekStamp, this.currentZone, slot.next)?.getTime() ?? Number.POSITIVE_INFINITY;
        }
      }
    }
    return out.sort((a, b) => a.slotAt - b.slotAt || a.ruleId - b.ruleId);
  }
}
