/**
 * Powertools Logger and Metrics, created once per process at module scope, as Powertools' own
 * examples do.
 *
 * Logs: one JSON object per line (shared/log-formatter.ts), which CloudWatch Logs indexes as is.
 * POWERTOOLS_LOG_LEVEL (or, on Lambda, the function's log level) sets the threshold, INFO by default.
 * A request's lines carry its context through the logger made for it (`requestLogger`, handed down
 * explicitly): not appendKeys on the shared logger, whose keys concurrent requests of the local
 * server would overwrite, nor a child logger (`createChild` costs about 0.1 ms a request), nor
 * AsyncLocalStorage (docs/decisions.md).
 *
 * Metrics: namespace POWERTOOLS_METRICS_NAMESPACE (shared/metric-names.ts), default dimensions
 * `service` (POWERTOOLS_SERVICE_NAME) and `stage` (STAGE_NAME); each record is published by the
 * code that adds it (`publishMetrics`), before its invocation ends. POWERTOOLS_METRICS_DISABLED=true
 * turns them off (`npm start` and the tests do, so that local output stays a log).
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { LogAttributes } from '@aws-lambda-powertools/logger/types';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { SafeLogFormatter } from './log-formatter';
import { METRICS_NAMESPACE } from './metric-names';

const serviceName = process.env.POWERTOOLS_SERVICE_NAME ?? 'bizops-api';

export const logger = new Logger({ serviceName, logFormatter: new SafeLogFormatter() });

const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? METRICS_NAMESPACE,
  serviceName,
  defaultDimensions: { stage: process.env.STAGE_NAME ?? 'local' },
});

type LogLine = (message: string, ...fields: LogAttributes[]) => void;

/** What code logs through: the process's `logger`, or a request's (`requestLogger`). */
export interface Log {
  debug: LogLine;
  info: LogLine;
  warn: LogLine;
  error: LogLine;
}

/** The ids every line of one request carries; never a request value. */
export interface RequestLogKeys {
  /** The API Gateway request id (the envelopes' request_id). */
  request_id?: string;
  /** The Lambda invocation id. */
  function_request_id?: string;
  route?: string;
  entity_id?: string;
  key_id?: string;
  cold_start?: boolean;
}

/** A logger whose every line carries `keys`, written by the shared `logger`. */
export function requestLogger(keys: RequestLogKeys): Log {
  const context: LogAttributes = { ...keys };
  return {
    debug: (message, ...fields) => logger.debug(message, context, ...fields),
    info: (message, ...fields) => logger.info(message, context, ...fields),
    warn: (message, ...fields) => logger.warn(message, context, ...fields),
    error: (message, ...fields) => logger.error(message, context, ...fields),
  };
}

export interface MetricValue {
  name: string;
  unit: (typeof MetricUnit)[keyof typeof MetricUnit];
  value: number;
}

/**
 * Publishes one EMF record of `values` now. With `breakdown` (one dimension, e.g. `{ route }`)
 * the record is published under the default dimensions and under them plus the breakdown, so the
 * stage total and the breakdown both exist.
 */
export function publishMetrics(values: readonly MetricValue[], breakdown?: Record<string, string>): void {
  if (breakdown) metrics.addDimensions({}).addDimensions(breakdown);
  for (const { name, unit, value } of values) metrics.addMetric(name, unit, value);
  metrics.publishStoredMetrics();
}

export { MetricUnit };
