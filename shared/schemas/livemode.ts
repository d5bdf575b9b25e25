/**
 * `livemode` on every object: true when it belongs to live data, false for test data. A key sees
 * only the objects of its own mode, so the value is the caller's mode; it is stamped in one place
 * (the handler stack for responses, the outbox for event objects) instead of in every store.
 */
import * as z from 'zod/mini';

/**
 * The field every resource schema declares right after `object`. At run time it is a required
 * boolean: responses are validated with it and the OpenAPI document lists it as required. Its
 * TypeScript type is optional on purpose: stores and handlers build objects before the stamp, and
 * none of them can know the mode, so none of them is asked to set it.
 */
export const livemode = () =>
  z
    .boolean()
    .check(
      z.describe('True for an object of live data, false for test data. A key reads and writes only the data of its own mode.'),
    ) as unknown as z.ZodMiniOptional<z.ZodMiniBoolean>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * A copy of `value` in which every object with an `object` name other than `list` carries
 * `livemode` (placed right after `object`), at any depth: list entries, lines, expanded objects.
 * Metadata is free-form text the integrator owns and is left as it is.
 */
export function withLivemode<T>(value: T, live: boolean): T {
  if (Array.isArray(value)) return value.map((item: unknown) => withLivemode(item, live)) as T;
  if (!isPlainObject(value)) return value;
  const stamp = typeof value.object === 'string' && value.object !== 'list';
  const out: Record<string, unknown> = {};
  // for...in over own keys and no call for a primitive member: this runs on every response.
  for (const key in value) {
    if (!Object.hasOwn(value, key) || (key === 'livemode' && stamp)) continue;
    const member = value[key];
    out[key] = key === 'metadata' || typeof member !== 'object' || member === null ? member : withLivemode(member, live);
    if (key === 'object' && stamp) out.livemode = live;
  }
  return out as T;
}
