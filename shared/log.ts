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

function serialise(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack, cause: value.cause ? serialise(value.cause) : undefined };
  return value;
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
