import { slotInstantsBetween } from '../../shared/autoCheckSchedule.js';
import type { AutoCheckEvent } from '../../shared/schemas/autoCheck.js';
import type { LocalRuleScheduler } from '../../functions/autoCheck/scheduler/localRuleScheduler.js';
import type { ScheduledRule } from '../../functions/autoCheck/scheduler/ruleScheduler.js';

export interface TimerRule extends ScheduledRule {
  /** Since when the rule's times and enable hold: the catch-up looks no further back. */
  schedule_since: number;
}

export interface RuleTimerOptions {
  /** The local adapter's plan (the API writes it through the RuleScheduler port). */
  plan: LocalRuleScheduler;
  /** The auto-check handler, as the registry declares it. */
  handler: (event: AutoCheckEvent) => Promise<unknown>;
  /** Every live rule and the zone in force, from the store. */
  load: () => Promise<{ rules: TimerRule[]; zone: string }>;
  /** The clock; tests drive `tick` themselves and pass `autoStart: false`. */
  now?: () => number;
  /** Re-reads the rules this often, for rules written by another process. Default 60 s. */
  reloadEveryMs?: number;
  /** How far back the start looks for slots that passed while the stack was down. Default a week. */
  catchUpMs?: number;
  /** Arms a real timer at each minute; false leaves ticking to the caller. Default true. */
  autoStart?: boolean;
  onError?: (message: string, error: unknown) => void;
}

export interface RuleTimer {
  /** Loads the plan and hands the handler every slot since the catch-up horizon; resolves when done. */
  started: Promise<void>;
  /** Fires every slot in (last tick, now]. */
  tick(now?: number): Promise<void>;
  /** Stops the timer and waits for a running tick. */
  stop(timeoutMs?: number): Promise<boolean>;
}

const WEEK_MS = 7 * 86_400_000;

/**
 * The local stand-in for EventBridge Scheduler: at each whole minute it fires the slots of the
 * plan that came due since the last tick, through the same handler the cloud schedules invoke.
 * At start it hands the handler the slots that passed while the stack was down (since the
 * rule's last change, at most a week back): the handler runs one that is less than 10 minutes
 * late, logs older ones as missed, and does nothing for one that already fired (its claim).
 */
export function startRuleTimer(opts: RuleTimerOptions): RuleTimer {
  const now = opts.now ?? Date.now;
  const reloadEveryMs = opts.reloadEveryMs ?? 60_000;
  const catchUpMs = opts.catchUpMs ?? WEEK_MS;
  const onError = opts.onError ?? ((message, error) => console.error(`[rule timer] ${message}`, error));
  let lastTick = now();
  let lastReload = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const fire = async (event: AutoCheckEvent) => {
    try {
      await opts.handler(event);
    } catch (error) {
      onError(`slot ${event.ruleId}/${event.weekStamp} failed`, error);
    }
  };

  async function reload(at: number): Promise<TimerRule[]> {
    const { rules, zone } = await opts.load();
    await opts.plan.resyncAll(rules, zone);
    lastReload = at;
    return rules;
  }

  async function catchUp(): Promise<void> {
    const at = now();
    const rules = await reload(at);
    lastTick = at;
    const firings = rules
      .filter((r) => r.enable)
      .flatMap((r) =>
        slotInstantsBetween(r.times, opts.plan.zone, Math.max(at - catchUpMs, r.schedule_since), at).map((s) => ({
          ruleId: r.id,
          weekStamp: s.weekStamp,
          slotAt: s.at.getTime(),
        })),
      )
      .sort((a, b) => a.slotAt - b.slotAt);
    for (const f of firings) await fire(f);
  }

  async function runTick(at: number): Promise<void> {
    if (at - lastReload >= reloadEveryMs) {
      try {
        await reload(at);
      } catch (error) {
        onError('reloading the rules failed; the last plan stays', error);
      }
    }
    const from = lastTick;
    lastTick = Math.max(lastTick, at);
    for (const f of opts.plan.due(from, at)) await fire(f);
  }

  const tick = (at = now()) => {
    running = running.then(() => runTick(at));
    return running;
  };

  // Slots are whole minutes: waking just after each minute fires them on time.
  const arm = () => {
    if (stopped || opts.autoStart === false) return;
    const t = now();
    timer = setTimeout(
      () => {
        void tick().finally(arm);
      },
      60_000 - (t % 60_000) + 50,
    );
  };

  running = catchUp().catch((error) => onError('start failed', error));
  const started = running.then(arm);

  return {
    started,
    tick,
    async stop(timeoutMs = 30_000) {
      stopped = true;
      clearTimeout(timer);
      let t: NodeJS.Timeout | undefined;
      const done = await Promise.race([
        running.then(() => true),
        new Promise<boolean>((r) => {
          t = setTimeout(() => r(false), timeoutMs);
        }),
      ]);
      clearTimeout(t);
      return done;
    },
  };
}
