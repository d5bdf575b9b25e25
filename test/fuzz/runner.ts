/**
 * Sends fuzz requests one at a time (so a changed row belongs to exactly one request) and checks
 * each answer: below 500; an error is the JSON envelope (code, type, error, hint, request_id, and
 * param for the parameter codes); a refused request leaves the entity's rows as they were; a body
 * carrying a card number is never accepted.
 */
import http from 'node:http';
import fc from 'fast-check';
import { requestArbitrary, type FuzzRequest } from './requests';
import { changedTables, fingerprint, fingerprintQuery, type SeededWorld } from './world';

/** Codes about one parameter: their envelope must name it. */
const PARAM_CODES = new Set(['parameter_invalid', 'parameter_missing', 'parameter_unknown', 'expand_error', 'raw_card_data_refused', 'raw_bank_data_refused']);

type FailureKind = '5xx' | 'not an envelope' | 'param missing' | 'rejected request wrote rows' | 'card number accepted' | 'no response';

interface Failure {
  kind: FailureKind;
  request: FuzzRequest;
  status: number;
  detail: string;
  seed: number;
  index: number;
}

export interface FuzzReport {
  sent: number;
  statuses: Record<string, number>;
  /** Requests sent per operation id. */
  operations: Record<string, number>;
  /** Requests sent per category label. */
  labels: Record<string, number>;
  failures: Failure[];
  milliseconds: number;
}

interface Response {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/**
 * A kept-alive connection the server closed after its last answer (it need not read the rest of
 * a refused body) resets the next request sent on it: that request is sent once more on a
 * connection of its own, so only a server that cannot answer counts as no response.
 */
async function send(baseUrl: string, request: FuzzRequest): Promise<Response> {
  try {
    return await sendOn(baseUrl, request, agent);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET' && (error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
    return sendOn(baseUrl, request, false);
  }
}

function sendOn(baseUrl: string, request: FuzzRequest, via: http.Agent | false): Promise<Response> {
  const target = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        // Node sends a DELETE's or GET's body without a length unless told: the server would read it as the next request.
        headers: request.body === undefined ? request.headers : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        agent: via,
        timeout: 60_000,
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text: Buffer.concat(chunks).toString('utf8') }));
        incoming.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 60 s')));
    // The gateway may answer (413) before a large body is written: the answer counts, not the write error.
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/** A body that is valid JSON but not an object has no parameter to name. */
function bodyIsNotAnObject(request: FuzzRequest): boolean {
  try {
    const parsed: unknown = JSON.parse(request.body ?? '{}');
    return typeof parsed !== 'object' || parsed === null || Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** What is wrong with an answer, if anything (the row check aside). */
function check(request: FuzzRequest, response: Response): { kind: FailureKind; detail: string } | undefined {
  if (response.status >= 500) return { kind: '5xx', detail: response.text.slice(0, 300) };
  if (request.cardNumber && response.status < 300) return { kind: 'card number accepted', detail: response.text.slice(0, 200) };
  if (response.status < 400) return undefined;
  let envelope: Record<string, unknown>;
  try {
    envelope = JSON.parse(response.text) as Record<string, unknown>;
  } catch {
    return { kind: 'not an envelope', detail: `${response.status} ${JSON.stringify(response.text.slice(0, 200))}` };
  }
  const missing = ['code', 'type', 'error', 'hint', 'request_id'].filter((field) => typeof envelope?.[field] !== 'string' || envelope[field] === '');
  if (missing.length) return { kind: 'not an envelope', detail: `missing ${missing.join(', ')}: ${response.text.slice(0, 200)}` };
  if (!String(response.headers['content-type']).startsWith('application/json'))
    return { kind: 'not an envelope', detail: `content-type ${response.headers['content-type']}` };
  if (PARAM_CODES.has(envelope.code as string) && typeof envelope.param !== 'string' && !bodyIsNotAnObject(request)) {
    return { kind: 'param missing', detail: response.text.slice(0, 200) };
  }
  return undefined;
}

/**
 * The server logs an unexpected error before it answers 500: the last such line, kept with the
 * failure, names the defect (message and first frames) without reading the logs by hand.
 */
function captureErrorLogs(): { last(): string | undefined; clear(): void; restore(): void } {
  // Powertools Logger writes its error lines to the process's stderr through a Console of its own.
  const original = process.stderr.write.bind(process.stderr);
  let latest: string | undefined;
  process.stderr.write = (chunk: unknown) => {
    const line = String(chunk).trim();
    try {
      const parsed = JSON.parse(line) as { message?: string; error?: { message?: string; stack?: string } };
      const stack = (parsed.error?.stack ?? '')
        .split('\n')
        .slice(1, 4)
        .map((frame) => frame.trim())
        .join(' < ');
      latest = `${parsed.message}: ${parsed.error?.message ?? ''} ${stack}`.slice(0, 400);
    } catch {
      latest = line.slice(0, 400);
    }
    return true;
  };
  return {
    last: () => latest,
    clear: () => (latest = undefined),
    restore: () => (process.stderr.write = original),
  };
}

export interface RunOptions {
  seed: number;
  count: number;
  /** Called every `progressEvery` requests. */
  onProgress?: (sent: number, report: FuzzReport) => void;
  progressEvery?: number;
  /** Checked before each request: true ends the run early with what it has (Ctrl-C on the long run). */
  stopped?: () => boolean;
}

export async function runFuzz(baseUrl: string, world: SeededWorld, options: RunOptions): Promise<FuzzReport> {
  const started = Date.now();
  const report: FuzzReport = { sent: 0, statuses: {}, operations: {}, labels: {}, failures: [], milliseconds: 0 };
  const query = await fingerprintQuery(world.entityId);
  const logs = captureErrorLogs();
  try {
    let before = await fingerprint(world.entityId, query);
    // Generated in batches of 500 (each seeded from the run's seed and its offset): the huge bodies
    // of a long run need not sit in memory at once.
    for (let offset = 0; offset < options.count && !options.stopped?.(); offset += 500) {
      const batchSeed = Math.imul(options.seed, 0x9e3779b1) ^ offset;
      const batch = fc.sample(requestArbitrary(world.operations, world), { seed: batchSeed, numRuns: Math.min(500, options.count - offset) });
      for (const [position, request] of batch.entries()) {
        if (options.stopped?.()) break;
        const index = offset + position;
        const fail = (kind: FailureKind, status: number, detail: string) => report.failures.push({ kind, request, status, detail, seed: options.seed, index });
        let response: Response;
        logs.clear();
        try {
          response = await send(baseUrl, request);
        } catch (error) {
          fail('no response', 0, String(error));
          before = await fingerprint(world.entityId, query);
          continue;
        }
        report.sent++;
        report.operations[request.operation] = (report.operations[request.operation] ?? 0) + 1;
        report.labels[request.label] = (report.labels[request.label] ?? 0) + 1;
        report.statuses[response.status] = (report.statuses[response.status] ?? 0) + 1;
        const problem = check(request, response);
        if (problem) fail(problem.kind, response.status, problem.kind === '5xx' ? `${problem.detail} | log: ${logs.last() ?? 'none'}` : problem.detail);
        // A GET runs in a READ ONLY transaction (PostgreSQL refuses its writes): its fingerprint is
        // skipped for speed; a row it wrote anyway still shows at the next refused request.
        if (request.method !== 'GET') {
          const after = await fingerprint(world.entityId, query);
          if (response.status >= 400) {
            const changed = changedTables(before, after);
            if (changed.length) fail('rejected request wrote rows', response.status, `changed: ${changed.join(', ')}`);
          }
          before = after;
        }
        if (options.onProgress && report.sent % (options.progressEvery ?? 1000) === 0) options.onProgress(report.sent, report);
      }
    }
  } finally {
    logs.restore();
  }
  report.milliseconds = Date.now() - started;
  return report;
}

const truncate = (text: string | undefined, length: number) =>
  text === undefined ? '' : text.length > length ? `${text.slice(0, length)}… (${text.length} chars)` : text;

/** One line per request: what to paste into curl or a test to reproduce. */
function describeRequest(request: FuzzRequest): string {
  const headers = Object.entries(request.headers)
    .filter(([name]) => name !== 'authorization' || !request.headers.authorization?.startsWith('Bearer bo_'))
    .map(([name, value]) => `${name}: ${truncate(value, 60)}`);
  return `${request.method} ${truncate(request.url, 200)}${headers.length ? ` [${headers.join('; ')}]` : ''}${request.body === undefined ? '' : ` body ${truncate(JSON.stringify(request.body), 240)}`}`;
}

/** Failures grouped by kind and category, each with its count and shortest example. */
export function summarise(report: FuzzReport): string {
  const groups = new Map<string, Failure[]>();
  for (const failure of report.failures) {
    const key = `${failure.kind} · ${failure.request.label}`;
    groups.set(key, [...(groups.get(key) ?? []), failure]);
  }
  const lines = [
    `requests sent: ${report.sent} in ${(report.milliseconds / 1000).toFixed(1)} s`,
    `statuses: ${Object.entries(report.statuses)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([status, count]) => `${status}×${count}`)
      .join(' ')}`,
    `5xx: ${report.failures.filter((failure) => failure.kind === '5xx').length}; failures: ${report.failures.length}`,
  ];
  for (const [key, failures] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
    const example = failures.reduce((best, failure) => (describeRequest(failure.request).length < describeRequest(best.request).length ? failure : best));
    const operations = new Set(failures.map((failure) => failure.request.operation));
    lines.push(
      `\n${key}: ${failures.length} (${operations.size} operations)`,
      `  e.g. ${describeRequest(example.request)}`,
      `  → ${example.status} ${truncate(example.detail, 500)}`,
      `  replay: FUZZ_SEED=${example.seed} (request #${example.index})`,
    );
  }
  return lines.join('\n');
}
