/**
 * What Powertools Logger and Metrics write while a test runs: they write to the process's stdout
 * and stderr through a Console of their own (not the global console), one JSON object per line.
 */
import { vi } from 'vitest';
import { logger } from '../../shared/powertools';

export interface Emitted {
  /** Every line, as written. */
  lines: string[];
  /** The log lines, parsed. */
  logs: Record<string, unknown>[];
  /** The EMF records (the lines with `_aws`), parsed. */
  metrics: Record<string, unknown>[];
}

/** The lines written while `run` runs, at every log level. */
export async function emittedDuring(run: () => unknown): Promise<Emitted> {
  const lines: string[] = [];
  const keep = (chunk: unknown) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  };
  const level = logger.getLevelName();
  logger.setLogLevel('DEBUG');
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(keep);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(keep);
  try {
    await run();
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
    logger.setLogLevel(level);
  }
  const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { lines, logs: parsed.filter((line) => !('_aws' in line)), metrics: parsed.filter((line) => '_aws' in line) };
}
