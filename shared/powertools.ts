/**
 * Powertools Logger and Metrics, one of each per process, created on first use: a request that
 * logs nothing does not build the Logger (nor its Console on stdout and stderr), and a cold start
 * builds neither while the bundle loads.
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

let loggerInstance: Logger | undefined;
const powertoolsLogger = (): Logger => (loggerInstance ??= new Logger({ serviceName, logFormatter: new SafeLogFormatter() }));

/** Powertools Metrics, telling whether it writes records (POWERTOOLS_METRICS_DISABLED; `isDisabled` is for subclasses). */
class ServiceMetrics extends Metrics {
  get writesRecords(): boolean {
    return !this.isDisabled();
  }
}

let metricsInstance: ServiceMetrics | undefined;
const powertoolsMetrics = (): ServiceMetrics =>
  (metricsInstance ??= new ServiceMetrics({
    namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? METRICS_NAMESPACE,
    serviceName,
    defaultDimensions: { stage: process.env.STAGE_NAME ?? 'local' },
  }));

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

/** The process's logger: Powertools Logger, built by its first line. The level can be read and set as on the Logger. */
export const logger: Log & Pick<Logger, 'getLevelName' | 'setLogLevel'> = {
  debug: (message, ...fields) => powertoolsLogger().debug(message, ...fields),
  info: (message, ...fields) => powertoolsLogger().info(message, ...fields),
  warn: (message, ...fields) => powertoolsLogger().warn(message, ...fields),
  error: (message, ...fields) => powertoolsLogger().error(message, ...fields),
  getLevelName: () => powertoolsLogger().getLevelName(),
  setLogLevel: (level) => powertoolsLogger().setLogLevel(level),
};

/**
 * A request's logger: every line carries its keys, written by the shared `logger`. A class, so a
 * request allocates one object, not a closure per level.
 */
class RequestLog implements Log {
  constructor(private readonly context: LogAttributes) {}
  debug(message: string, ...fields: LogAttributes[]): void {
    logger.debug(message, this.context, ...fields);
  }
  info(message: string, ...fields: LogAttributes[]): void {
    logger.info(message, this.context, ...fields);
  }
  warn(message: string, ...fields: LogAttributes[]): void {
    logger.warn(message, this.context, ...fields);
  }
  error(message: string, ...fields: LogAttributes[]): void {
    logger.error(message, this.context, ...fields);
  }
}

/** A logger whose every line carries `keys` (kept as given: the caller hands over a fresh object), written by the shared `logger`. */
export function requestLogger(keys: RequestLogKeys): Log {
  return new RequestLog(keys as LogAttributes);
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
  const metrics = powertoolsMetrics();
  // Disabled, Powertools would still store, check and clear the values, only to write nothing.
  if (!metrics.writesRecords) return;
  if (breakdown) metrics.addDimensions({}).addDimensions(breakdown);
  for (const { name, unit, value } of values) metrics.addMetric(name, unit, value);
  metrics.publishStoredMetrics();
}

export { MetricUnit };
