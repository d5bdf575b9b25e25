/**
 * Arguments of the command-line entry points (npm start, npm run cli, npm run recurring,
 * npm run bench, npm run client:generate), one
 * behaviour for all: `--help` (or `-h`) prints the usage, and so does anything node's strict
 * parseArgs refuses (an unknown flag, a flag without its value, a stray argument), with the
 * problem on the line above. Both leave with exit status 2, the usage-error status, and never
 * with a stack trace.
 */
import { parseArgs } from 'node:util';

export interface CommandLine {
  /** The options that take a value (`--name value` or `--name=value`). */
  values: Record<string, string | undefined>;
  /** The boolean flags given (`--quick`). */
  flags: Set<string>;
  positionals: string[];
}

/** Exits the process (status 2) on --help or a refused argument; otherwise returns what was given. */
export function parseCommandLine(
  usage: string,
  spec: { options?: readonly string[]; flags?: readonly string[]; positionals?: boolean },
  args = process.argv.slice(2),
): CommandLine {
  const options = {
    ...Object.fromEntries((spec.options ?? []).map((name) => [name, { type: 'string' as const }])),
    ...Object.fromEntries((spec.flags ?? []).map((name) => [name, { type: 'boolean' as const }])),
  };
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: spec.positionals ?? false, strict: true });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    process.exit(2);
  }
  if (parsed.values.help) {
    console.log(usage);
    process.exit(2);
  }
  const values: Record<string, string | undefined> = {};
  const flags = new Set<string>();
  for (const [name, value] of Object.entries(parsed.values)) {
    if (typeof value === 'string') values[name] = value;
    else if (value === true && name !== 'help') flags.add(name);
  }
  return { values, flags, positionals: parsed.positionals };
}
