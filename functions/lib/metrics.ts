import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger } from './logger.js';

// The product's own health as CloudWatch metrics: one EMF log line per event, which CloudWatch
// turns into a metric without an API call (Powertools metrics). The alarms and the dashboard
// (infra/constructs/Alarms.ts) read them by these names, with the dimension `stage`.
//
// Written only where the environment names a namespace (the CDK app sets it for every function);
// locally and in tests nothing is written, so a feature's one-line call costs nothing there.

export const METRICS_NAMESPACE = 'Patrol';

/** Every metric the product writes, with its unit: the one list the alarms are built from. */
export const PATROL_METRICS = {
  /** How long after its due second a bank poll started (ms); alarmed on p95. */
  BankPollLag: MetricUnit.Milliseconds,
  /** Subtasks of a check that ended Failed. */
  SubtasksFailed: MetricUnit.Count,
  /** Bank webhook deliveries that ended Failed (every attempt used, or not retryable). */
  WebhookDeliveriesFailed: MetricUnit.Count,
  /** Telegram messages that could not be sent. */
  TelegramSendsFailed: MetricUnit.Count,
  /** Bank accounts that turned stale (polls failing for three intervals). */
  BankAccountsStale: MetricUnit.Count,
} as const;

export type PatrolMetricName = keyof typeof PATROL_METRICS;

let metrics: Metrics | undefined;

function writer(): Metrics | undefined {
  const namespace = process.env.POWERTOOLS_METRICS_NAMESPACE;
  if (!namespace) return undefined;
  if (!metrics) {
    metrics = new Metrics({ namespace });
    // One series per stage, whichever function wrote it: the alarms need not know who counts
    // (Powertools would add a `service` dimension per function).
    metrics.clearDefaultDimensions();
    metrics.setDefaultDimensions({ stage: process.env.PATROL_STAGE || 'unknown' });
  }
  return metrics;
}

/**
 * Records one value of a product metric (a count of 1 by default) and publishes it at once, so
 * no handler has to flush at its end. A failure here is logged, never thrown into the feature.
 */
export function recordMetric(name: PatrolMetricName, value = 1): void {
  try {
    const m = writer();
    if (!m) return;
    m.addMetric(name, PATROL_METRICS[name], value);
    m.publishStoredMetrics();
  } catch (error) {
    logger.warn('could not record a metric', { metric: name, error });
  }
}

/** For tests: the next call reads the environment again. */
export function resetMetrics(): void {
  metrics = undefined;
}
