/**
 * `$ops[n].field` references of a batch (run-batch.ts): a string that is exactly a reference, in
 * an operation's body (at any depth), query values or a whole path segment, is replaced by that
 * field of operation n's answer. n must be an earlier operation that succeeded.
 */
export interface OperationOutcome {
  status: number;
  body: Record<string, unknown>;
}

interface Referable {
  path: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

const REFERENCE = /^\$ops\[(\d{1,3})\]((?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d{1,6}\])+)$/;
const STEP = /\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g;

class InvalidReference extends Error {
  constructor(readonly where: string) {
    super(where);
  }
}

function lookUp(reference: string, index: number, earlier: readonly OperationOutcome[], where: string): unknown {
  const match = REFERENCE.exec(reference)!;
  const target = Number(match[1]);
  const outcome = target < index ? earlier[target] : undefined;
  if (!outcome || outcome.status >= 400) throw new InvalidReference(where);
  let value: unknown = outcome.body;
  for (const step of match[2].matchAll(STEP)) {
    const key = step[1] ?? Number(step[2]);
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) throw new InvalidReference(where);
    value = (value as Record<string | number, unknown>)[key];
  }
  if (value === undefined) throw new InvalidReference(where);
  return value;
}

function replaced(value: unknown, index: number, earlier: readonly OperationOutcome[], where: string): unknown {
  if (typeof value === 'string') return REFERENCE.test(value) ? lookUp(value, index, earlier, where) : value;
  if (Array.isArray(value)) return value.map((item, position) => replaced(item, index, earlier, `${where}[${position}]`));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, replaced(member, index, earlier, `${where}.${key}`)]));
  }
  return value;
}

function asText(value: unknown, where: string): string {
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  throw new InvalidReference(where);
}

/** The operation with its references replaced, or where the first invalid one is (e.g. `body.account_id`). */
export function resolveReferences<O extends Referable>(
  operation: O,
  index: number,
  earlier: readonly OperationOutcome[],
): { operation: O } | { invalid: string } {
  try {
    const path = operation.path
      .split('/')
      .map((segment) => (REFERENCE.test(segment) ? encodeURIComponent(asText(lookUp(segment, index, earlier, 'path'), 'path')) : segment))
      .join('/');
    const query =
      operation.query &&
      Object.fromEntries(
        Object.entries(operation.query).map(([name, value]) => [
          name,
          REFERENCE.test(value) ? asText(lookUp(value, index, earlier, `query.${name}`), `query.${name}`) : value,
        ]),
      );
    const body = operation.body && (replaced(operation.body, index, earlier, 'body') as Record<string, unknown>);
    return { operation: { ...operation, path, ...(query && { query }), ...(body && { body }) } };
  } catch (error) {
    if (error instanceof InvalidReference) return { invalid: error.where };
    throw error;
  }
}
