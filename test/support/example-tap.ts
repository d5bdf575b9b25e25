/**
 * The recording side of `npm run examples:record` (test/examples/record.ts): when
 * RECORD_EXAMPLES_DIR is set, every successful JSON exchange the typed test client makes is
 * appended, one JSON object a line, to a file of this process in that folder. Off (one env
 * check) in every ordinary run.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RecordedExchange {
  method: string;
  /** The path as sent, ids filled in. */
  path: string;
  query: Record<string, string | string[]>;
  body?: unknown;
  status: number;
  response: unknown;
}

export function tapExchange(exchange: Omit<RecordedExchange, 'response'> & { contentType: string | null; text: string }): void {
  const dir = process.env.RECORD_EXAMPLES_DIR;
  if (!dir || exchange.status < 200 || exchange.status >= 300 || !exchange.contentType?.startsWith('application/json')) return;
  const { contentType: _contentType, text, ...rest } = exchange;
  const line: RecordedExchange = { ...rest, response: JSON.parse(text) };
  appendFileSync(join(dir, `${process.pid}.jsonl`), `${JSON.stringify(line)}\n`);
}
