/**
 * The admin function: runs an operator command (functions/platform/admin-commands.ts) inside the
 * VPC, where the database is. `npm run cli -- --stage <stage> <command> ...` invokes it with the
 * operator's AWS credentials (lambda:InvokeFunction on this function is the whole authorisation);
 * API Gateway never routes to it and it has no function URL.
 *
 * Event: `{ command, options }` (options: string values, as on the command line). Answer:
 * `{ ok: true, result }`, or `{ ok: false, usage }` for a mistake in the command (nothing ran).
 * Anything else fails the invocation, so the CLI reports it and exits non-zero.
 */
import type { Context } from 'aws-lambda';
import { logger } from '../../shared/powertools';
import { runAdminCommand, UsageError } from './admin-commands';

export interface AdminEvent {
  command?: unknown;
  options?: unknown;
}

export type AdminAnswer = { ok: true; result: unknown } | { ok: false; usage: string };

function stringOptions(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new UsageError('options must be an object of strings');
  const options: Record<string, string> = {};
  for (const [name, option] of Object.entries(value)) {
    if (typeof option !== 'string') throw new UsageError(`--${name} takes a string`);
    options[name] = option;
  }
  return options;
}

export async function handler(event: AdminEvent, context?: Pick<Context, 'awsRequestId'>): Promise<AdminAnswer> {
  const command = typeof event?.command === 'string' ? event.command : undefined;
  try {
    const result = await runAdminCommand(command, stringOptions(event?.options));
    // What ran and for whom, never the option values (names, emails) or the result (a key secret).
    logger.info('admin command ran', { command, requestId: context?.awsRequestId });
    return { ok: true, result };
  } catch (error) {
    if (error instanceof UsageError) return { ok: false, usage: error.message };
    logger.error('admin command failed', { command, requestId: context?.awsRequestId, error });
    throw error;
  }
}
