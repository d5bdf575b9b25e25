/**
 * Structured logging: one JSON object per line on stdout, which CloudWatch Logs indexes as is.
 * Deliberately tiny (a logging library costs every function ~20 KB of bundle and cold start).
 * POWERTOOLS_LOG_LEVEL / LOG_LEVEL set the threshold (default INFO).
 */
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

function write(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (LEVELS[level] < threshold()) return;
  const line: Record<string, unknown> = { level, message, service: process.env.POWERTOOLS_SERVICE_NAME ?? 'bizops-api', timestamp: new Date().toISOString() };
  for (const [key, value] of Object.entries(fields)) line[key] = serialise(value);
  (level === 'ERROR' || level === 'WARN' ? console.error : console.log)(JSON.stringify(line));
}

export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write('DEBUG', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write('INFO', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('WARN', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('ERROR', message, fields),
};
