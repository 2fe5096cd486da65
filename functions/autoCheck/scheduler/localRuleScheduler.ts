import { slotInstantsBetween } from '../../../shared/autoCheckSchedule.js';
import type { RuleScheduler, ScheduledRule } from './ruleScheduler.js';

export interface SlotFiring {
  ruleId: number;
  weekStamp: number;
  /** The slot's instant, epoch ms. */
  slotAt: number;
}

/**
 * The local adapter: an in-memory plan of the enabled rules' slots. The API writes it through the
 * port when it runs in the same process as the local timer; the timer also reloads it from the
 * store (a rule written by another process appears within a reload period). Instants come from
 * the shared schedule module in the zone in force, so a zone change moves every slot at once.
 */
export class LocalRuleScheduler implements RuleScheduler {
  private readonly plan = new Map<number, ScheduledRule>();
  zone = 'UTC';

  async syncRule(rule: ScheduledRule, zone: string): Promise<void> {
    this.zone = zone;
    if (rule.enable && rule.times.length) this.plan.set(rule.id, { id: rule.id, times: rule.times, enable: true });
    else this.plan.delete(rule.id);
  }

  async removeRule(ruleId: number): Promise<void> {
    this.plan.delete(ruleId);
  }

  async resyncAll(rules: readonly ScheduledRule[], zone: string): Promise<void> {
    this.plan.clear();
    for (const rule of rules) await this.syncRule(rule, zone);
    this.zone = zone;
  }

  /** Rules in the plan, for tests and the bench. */
  get size(): number {
    return this.plan.size;
  }

  /** Every slot firing in (from, to], in time order. */
  due(from: number, to: number): SlotFiring[] {
    const out: SlotFiring[] = [];
    for (const rule of this.plan.values()) {
      for (const s of slotInstantsBetween(rule.times, this.zone, from, to)) {
        out.push({ ruleId: rule.id, weekStamp: s.weekStamp, slotAt: s.at.getTime() });
      }
    }
    return out.sort((a, b) => a.slotAt - b.slotAt || a.ruleId - b.ruleId);
  }
}
