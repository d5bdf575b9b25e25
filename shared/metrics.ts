/**
 * Custom metrics in CloudWatch's Embedded Metric Format (EMF): one JSON line on stdout per record,
 * which CloudWatch Logs turns into metrics with no API call and no extra latency. A thin writer of
 * our own rather than Powertools Metrics: bench/observability-import.ts measured what each costs a
 * cold start (figures in docs/decisions.md, "Observability: own logger and EMF writer").
 *
 * Namespace: POWERTOOLS_METRICS_NAMESPACE (infra sets `BizOps`). Every record carries the
 * dimensions `service` (POWERTOOLS_SERVICE_NAME) and `stage` (STAGE_NAME); a record may add one
 * more (`route`, `code`), published both with and without it so alarms read the stage total.
 *
 * Records are written only on Lambda (or when BIZOPS_METRICS=stdout): the local server's output
 * stays readable. Tests read them through `captureMetrics`.
 */

type MetricUnit = 'Count' | 'Milliseconds' | 'Seconds';

export interface MetricValue {
  name: string;
  unit: MetricUnit;
  value: number;
}

/** The metric names the application emits; infra/constructs/observability.ts alarms on them. */
export const METRIC_NAMES = {
  requests: 'Requests',
  errors: 'Errors',
  latency: 'Latency',
  outboxLag: 'OutboxLagSeconds',
  outboxPublished: 'OutboxPublished',
  webhookDeliveryFailures: 'WebhookDeliveryFailures',
} as const;

export const DEFAULT_METRICS_NAMESPACE = 'BizOps';

type Sink = (record: Record<string, unknown>) => void;
let sink: Sink | undefined;

// Read once: neither changes while the process runs, and every request asks.
const writesToStdout = process.env.AWS_LAMBDA_FUNCTION_NAME !== undefined || process.env.BIZOPS_METRICS === 'stdout';

/** Whether records are written (or captured) now: callers skip building them when not. */
export function metricsEnabled(): boolean {
  return sink !== undefined || writesToStdout;
}

/** The dimensions every record carries. */
function baseDimensions(): Record<string, string> {
  return { service: process.env.POWERTOOLS_SERVICE_NAME ?? 'bizops-api', stage: process.env.STAGE_NAME ?? 'local' };
}

/**
 * Writes one EMF record of `values`; `extra` (at most one dimension, e.g. `{ route }`) is
 * published as its own dimension set beside the stage-wide one.
 */
export function putMetrics(values: readonly MetricValue[], extra: Record<string, string> = {}): void {
  if (!metricsEnabled() || values.length === 0) return;
  const base = baseDimensions();
  const dimensionSets = [Object.keys(base)];
  if (Object.keys(extra).length) dimensionSets.push([...Object.keys(base), ...Object.keys(extra)]);
  const record: Record<string, unknown> = {
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [
        {
          Namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? DEFAULT_METRICS_NAMESPACE,
          Dimensions: dimensionSets,
          Metrics: values.map(({ name, unit }) => ({ Name: name, Unit: unit })),
        },
      ],
    },
    ...base,
    ...extra,
  };
  for (const { name, value } of values) record[name] = value;
  if (sink) sink(record);
  // Straight to stdout: Lambda's JSON log format wraps console output, and EMF must stay a bare line.
  else process.stdout.write(`${JSON.stringify(record)}\n`);
}

/** Collects the records written while `run` runs, instead of writing them (tests). */
export async function captureMetrics(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  const previous = sink;
  sink = (record) => records.push(record);
  try {
    await run();
  } finally {
    sink = previous;
  }
  return records;
}
