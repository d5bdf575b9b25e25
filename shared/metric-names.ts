/**
 * The application's custom metrics (CloudWatch's Embedded Metric Format, written by Powertools
 * Metrics, shared/powertools.ts): their namespace and names, which infra/constructs/observability.ts
 * alarms and graphs on.
 */

/** POWERTOOLS_METRICS_NAMESPACE on every function, and the namespace when it is not set. */
export const METRICS_NAMESPACE = 'BizOps';

export const METRIC_NAMES = {
  requests: 'Requests',
  errors: 'Errors',
  latency: 'Latency',
  outboxLag: 'OutboxLagSeconds',
  outboxPublished: 'OutboxPublished',
  webhookDeliveryFailures: 'WebhookDeliveryFailures',
} as const;
