/**
 * Structured logging: one JSON object per line on stdout, which CloudWatch Logs indexes as is.
 * Deliberately tiny: Powertools Logger costs a cold start about 4 ms more than this
 * (bench/observability-import.ts; docs/decisions.md, "Observability: own logger and EMF writer").
 * The keys are Powertools Logger's (level, message, service, timestamp, cold_start,
 * function_request_id, xray_trace_id), so queries written for it work here.
 *
 * A request's lines carry its context through the logger made for it (`loggerFor`, passed down
 * explicitly): the API request id, the route, the entity and key ids, whether this was the
 * environment's cold start. Not AsyncLocalStorage: on Node 20 and 22 it runs on promise hooks that
 * every promise of the process pays for, about a fifth of the handler stack's CPU (docs/decisions.md). Never a request
 * value: fields are what the caller passes, and errors are reduced to what names the failure
 * (below). POWERTOOLS_LOG_LEVEL / LOG_LEVEL set the threshold (default INFO).
 */
import { Console } from 'node:console';
const LEVELS = { DEBUG: 10, INFO: 20, WARN: 30, ERROR: 40 } as const;
type Level = keyof typeof LEVELS;

function threshold(): number {
  const configured = (process.env.LOG_LEVEL ?? process.env.POWERTOOLS_LOG_LEVEL ?? 'INFO').toUpperCase() as Level;
  return LEVELS[configured] ?? LEVELS.INFO;
}

/** Members of an error (pg's among them) that name what failed without carrying a value. */
const SAFE_ERROR_FIELDS = ['code', 'constraint', 'table', 'column', 'schema', 'dataType', 'routine', 'severity', 'errno', 'syscall'];

/**
 * What an error message may quote of a request is masked: quoted text (pg: `invalid input syntax
 * for type uuid: "..."`), the rest of an "invalid argument/input ...: x" message (decimal.js), and
 * every run of 4 or more digits (card, account and amount values).
 */
export function scrubText(text: string): string {
  return text
    .replace(/(invalid (?:argument|input)[^:\n]*:\s*).*/gi, '$1[redacted]')
    .replace(/"[^"\n]*"|'[^'\n]*'|`[^`\n]*`/g, (quoted) => `${quoted[0]}…${quoted[0]}`)
    .replace(/\d(?:[\d\s.,/-]*\d){3,}/g, '#');
}

/**
 * An error as a log field: name, scrubbed message, the safe members, the stack frames (never the
 * message line again) and the cause. Request values never reach a log line: pg's `detail` ("Key
 * (sku)=(...) already exists"), zod issues and parser excerpts are left out.
 */
function serialiseError(error: Error, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = { name: error.name, message: scrubText(error.message) };
  for (const field of SAFE_ERROR_FIELDS) {
    const value = (error as unknown as Record<string, unknown>)[field];
    if (typeof value === 'string' || typeof value === 'number') out[field] = value;
  }
  const frames = (error.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at '));
  if (frames.length) out.stack = frames.join('\n');
  if (error.cause !== undefined && depth < 5) out.cause = error.cause instanceof Error ? serialiseError(error.cause, depth + 1) : `[${typeof error.cause}]`;
  return out;
}

function serialise(value: unknown): unknown {
  return value instanceof Error ? serialiseError(value) : value;
}

/** What every line of one request (or one invocation) carries. Ids only: never a request value. */
export interface LogContext {
  /** The API Gateway request id (the envelopes' request_id). */
  request_id?: string;
  /** The Lambda invocation id. */
  function_request_id?: string;
  route?: string;
  entity_id?: string;
  key_id?: string;
  cold_start?: boolean;
}

/**
 * On Lambda, a private console on the process streams: the runtime rewrites the global console
 * when its JSON log format is on, which would nest our line inside its own. Locally (and in
 * tests, which spy on it) the global console.
 */
let lambdaConsole: Console | undefined;
function output(): Pick<Console, 'log' | 'error'> {
  if (process.env.AWS_LAMBDA_FUNCTION_NAME === undefined) return console;
  return (lambdaConsole ??= new Console({ stdout: process.stdout, stderr: process.stderr }));
}

function write(context: LogContext, level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (LEVELS[level] < threshold()) return;
  const line: Record<string, unknown> = { level, message, service: process.env.POWERTOOLS_SERVICE_NAME ?? 'bizops-api', timestamp: new Date().toISOString() };
  for (const [key, value] of Object.entries(context)) if (value !== undefined) line[key] = value;
  const traceId = process.env._X_AMZN_TRACE_ID;
  if (traceId) line.xray_trace_id = traceId.split(';')[0].replace('Root=', '');
  for (const [key, value] of Object.entries(fields)) line[key] = serialise(value);
  const out = output();
  (level === 'ERROR' || level === 'WARN' ? out.error : out.log)(JSON.stringify(line));
}

/** Each level is a plain function (bound to its context), so `log.warn` may be passed around. */
export interface Logger {
  debug: (message: string, fields?: Record<string, unknown>) => void;
  info: (message: string, fields?: Record<string, unknown>) => void;
  warn: (message: string, fields?: Record<string, unknown>) => void;
  error: (message: string, fields?: Record<string, unknown>) => void;
}

/** A logger whose every line carries `context` (a request's, an invocation's). */
export function loggerFor(context: LogContext): Logger {
  return {
    debug: (message, fields) => write(context, 'DEBUG', message, fields),
    info: (message, fields) => write(context, 'INFO', message, fields),
    warn: (message, fields) => write(context, 'WARN', message, fields),
    error: (message, fields) => write(context, 'ERROR', message, fields),
  };
}

/** Lines outside any request: start-up, scheduled jobs, the local server. */
export const log = loggerFor({});
