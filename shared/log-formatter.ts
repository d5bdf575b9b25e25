/**
 * The shape of a log line, through Powertools Logger's extension point for formats (a
 * LogFormatter): Powertools' standard keys (level, message, service, timestamp, xray_trace_id),
 * then the line's own (a request's request_id, function_request_id, route, entity_id, key_id,
 * cold_start; the fields the call passes).
 *
 * Never a request value: an error (wherever it sits in a line) is written as its name, its
 * message with what it quotes masked, the members that name what failed, its stack frames and its
 * cause. pg's `detail` ("Key (sku)=(...) already exists"), zod issues and parser excerpts are left out.
 */
import { LogFormatter, LogItem } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';

/** Members of an error (pg's among them) that name what failed without carrying a value. */
const SAFE_ERROR_FIELDS = ['code', 'constraint', 'table', 'column', 'schema', 'dataType', 'routine', 'severity', 'errno', 'syscall'];

/** How deep a chain of causes is followed. */
const MAX_CAUSE_DEPTH = 5;

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

export class SafeLogFormatter extends LogFormatter {
  override formatAttributes(attributes: UnformattedAttributes, additionalLogAttributes: LogAttributes): LogItem {
    return new LogItem({
      attributes: {
        level: attributes.logLevel,
        message: attributes.message,
        service: attributes.serviceName,
        timestamp: this.formatTimestamp(attributes.timestamp),
        xray_trace_id: attributes.xRayTraceId,
      },
    }).addAttributes(additionalLogAttributes);
  }

  override formatError(error: Error): LogAttributes {
    return this.#safeError(error, 0);
  }

  #safeError(error: Error, depth: number): LogAttributes {
    const out: LogAttributes = { name: error.name, location: this.getCodeLocation(error.stack), message: scrubText(error.message) };
    for (const field of SAFE_ERROR_FIELDS) {
      const value = (error as unknown as Record<string, unknown>)[field];
      if (typeof value === 'string' || typeof value === 'number') out[field] = value;
    }
    // The frames only: the stack's first line repeats the message, unscrubbed.
    const frames = (error.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at '));
    if (frames.length) out.stack = frames.join('\n');
    if (error.cause !== undefined && depth < MAX_CAUSE_DEPTH) {
      out.cause = error.cause instanceof Error ? this.#safeError(error.cause, depth + 1) : `[${typeof error.cause}]`;
    }
    return out;
  }
}
