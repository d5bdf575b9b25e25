/**
 * Bundle stand-in for `@aws-lambda-powertools/jmespath` (and its `/functions` entry).
 *
 * Powertools idempotency selects the idempotency key and the payload fingerprint with JMESPath
 * expressions. Ours are plain field names (`scope`, `fingerprint` in
 * shared/http/idempotency-store.ts), so the full JMESPath interpreter (~24 KB minified in every
 * route bundle) buys nothing. This stand-in evaluates dotted field paths only and throws on
 * anything else, so a richer expression fails loudly instead of selecting the wrong data.
 * Local runs and tests use the real package; test/infra/bundle-shims.test.ts checks both agree.
 */
const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

export function search(expression: string, data: unknown): unknown {
  if (!FIELD_PATH.test(expression)) {
    throw new Error(`bundled JMESPath stand-in supports dotted field paths only, got "${expression}"`);
  }
  let value: unknown = data;
  for (const field of expression.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    value = (value as Record<string, unknown>)[field] ?? null;
  }
  return value;
}

/** Powertools passes an instance as `customFunctions`; field paths never call a function. */
export class PowertoolsFunctions {}
