/**
 * A write's body is read without zod when its route has a body plan (shared/http/body-plan.ts).
 * For every route with a body, whatever the plan reads must be exactly what the route's schema
 * parses the same body into (values and key order), and a body the schema refuses must be left
 * to zod. Bodies are generated from the plan itself: mostly well-formed, with values replaced,
 * keys dropped or added, text padded and bounds crossed along the way.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/routes';
import { compileBodyPlan, readBody, type BodyPlan } from '../../shared/http/body-plan';
import { DATE_PATTERN, TIMESTAMP_PATTERN } from '../../shared/schemas/common';
import { LocationCreate } from '../../shared/inventory/schemas/location';
import type { z } from 'zod';

/** Every route with a body, and that body's schema. */
const bodyRoutes = ROUTES.flatMap((route) => (route.auth === 'api_key' && route.body !== undefined ? [{ id: route.id, body: route.body as z.ZodType }] : []));
/** As bundles ship it: JSON. */
const planOf = (schema: z.ZodType) => {
  const plan = compileBodyPlan(schema);
  return plan === undefined ? undefined : (JSON.parse(JSON.stringify(plan)) as BodyPlan);
};

const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 1 }),
  fc.constantFrom('', ' ', 'x', '  padded  ', '__proto__', 'constructor', '1e400', '-0', '00', '1.', '.5', '12.345678', 'NaN', -0, 1e21, 2 ** 53, 0.1),
);

function stringArbitrary(steps: Extract<BodyPlan, { kind: 'string' }>['steps'], noisy: boolean): fc.Arbitrary<string> {
  const pattern = steps.find((step) => 'pattern' in step);
  const min = Math.max(0, ...steps.map((step) => ('min' in step ? step.min : 'length' in step ? step.length : 0)));
  const max = Math.min(60, ...steps.map((step) => ('max' in step ? step.max : 'length' in step ? step.length : 60)));
  let core: fc.Arbitrary<string>;
  if (pattern && 'pattern' in pattern) {
    const regex = new RegExp(pattern.pattern, pattern.flags);
    const known = [DATE_PATTERN, TIMESTAMP_PATTERN].find((candidate) => candidate.source === regex.source);
    core = fc.oneof(
      fc.stringMatching(regex),
      ...(known === TIMESTAMP_PATTERN
        ? [
            fc.constantFrom(
              '2026-11-30T12:00:00Z',
              '0000-01-01T00:00:00Z',
              '9999-12-31T23:59:59+14:00',
              '2026-01-01T00:00:00-13:00',
              '2026-01-01T00:00:00.123456+05:30',
            ),
          ]
        : []),
      ...(known === DATE_PATTERN ? [fc.constantFrom('2026-11-30', '0000-01-01', '2024-02-29', '2023-02-29')] : []),
    );
  } else {
    core = noisy
      ? fc.string({ minLength: Math.max(0, min - 1), maxLength: Math.min(max + 1, 61) })
      : fc.string({ unit: fc.constantFrom(...'abcXYZ019-_é'), minLength: min, maxLength: max });
  }
  if (!noisy) return core;
  // Padding, case and a crossed bound: what trim, the rewrites and the limits are for.
  return fc.oneof(
    { weight: 6, arbitrary: core },
    { weight: 1, arbitrary: core.map((text) => `  ${text} `) },
    { weight: 1, arbitrary: core.map((text) => text.toUpperCase()) },
    { weight: 1, arbitrary: fc.string({ minLength: max, maxLength: max + 2 }) },
  );
}

const isOptional = (plan: BodyPlan) => plan.kind === 'optional' || plan.kind === 'default' || (plan.kind === 'nullable' && plan.inner.kind === 'optional');

/** Bodies from a plan: well-formed ones, or (noisy) with bounds crossed, fields dropped or added and values replaced here and there. */
function arbitraryOf(plan: BodyPlan, noisy: boolean, depth = 0): fc.Arbitrary<unknown> {
  const valid = ((): fc.Arbitrary<unknown> => {
    switch (plan.kind) {
      case 'object': {
        const entries = plan.fields.map(([key, field]) =>
          fc.record({
            key: fc.constant(key),
            value: arbitraryOf(field, noisy, depth + 1),
            omit: fc.integer({ min: 0, max: 99 }).map((roll) => roll < (isOptional(field) ? 40 : noisy ? 2 : 0)),
          }),
        );
        const extra = noisy ? fc.option(fc.constantFrom('unknown_field', '__proto__', 'entity_id', 'toString'), { freq: 20 }) : fc.constant(null);
        return fc.tuple(fc.tuple(...entries), extra, junk).map(([fields, extraKey, extraValue]) => {
          const body: Record<string, unknown> = {};
          for (const { key, value, omit } of fields)
            if (!omit) Object.defineProperty(body, key, { value, enumerable: true, writable: true, configurable: true });
          if (extraKey !== null) Object.defineProperty(body, extraKey, { value: extraValue, enumerable: true, writable: true, configurable: true });
          return body;
        });
      }
      case 'string':
        return stringArbitrary(plan.steps, noisy);
      case 'number': {
        const low = plan.bounds.find((bound) => bound.above)?.value ?? -1e6;
        const high = plan.bounds.find((bound) => !bound.above)?.value ?? 1e6;
        const integers = fc.integer({ min: Math.ceil(Math.max(low, -1e9)) - (noisy ? 1 : 0), max: Math.floor(Math.min(high, 1e9)) + (noisy ? 1 : 0) });
        return noisy ? fc.oneof(integers, fc.double({ noNaN: true, min: -1e9, max: 1e9 })) : integers;
      }
      case 'boolean':
        return fc.boolean();
      case 'oneOf':
        return fc.constantFrom(...plan.values);
      case 'optional':
      case 'nullable':
        return fc.oneof(
          { weight: 4, arbitrary: arbitraryOf(plan.inner, noisy, depth) },
          { weight: 1, arbitrary: fc.constant(plan.kind === 'nullable' ? null : 'x') },
        );
      case 'default':
        return arbitraryOf(plan.inner, noisy, depth);
      case 'array':
        return fc.array(arbitraryOf(plan.item, noisy, depth + 1), {
          minLength: Math.max(0, (plan.min ?? 0) - (noisy ? 1 : 0)),
          maxLength: Math.max(plan.min ?? 0, depth > 2 ? 2 : Math.min((plan.max ?? 3) + (noisy ? 1 : 0), 4)),
        });
      case 'record':
        return fc.dictionary(stringArbitrary(plan.key.steps, noisy), arbitraryOf(plan.value, noisy, depth + 1), { maxKeys: 4 });
      case 'decimal': {
        const { scale = 2, min = 0, max = 1_000_000, exclusiveMin = false } = plan.options;
        const inRange = fc
          .tuple(
            fc.integer({ min: Math.ceil(min) + (exclusiveMin ? 1 : 0), max: Math.min(max, 1_000_000) - 1 }),
            fc.integer({ min: 0, max: 10 ** scale - 1 }),
            fc.boolean(),
          )
          .map(([whole, fraction, asText]) => {
            const text = scale === 0 ? String(whole) : `${whole}.${String(fraction).padStart(scale, '0')}`;
            return asText ? text : Number(text);
          });
        if (!noisy) return inRange;
        return fc.oneof(
          inRange,
          fc.integer({ min: -1_000_000, max: 1_000_000 }),
          fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e13, max: 1e13 }),
          fc
            .tuple(fc.integer({ min: -99_999, max: 99_999 }), fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 6 }))
            .map(([whole, fraction, digits]) => (digits === 0 ? String(whole) : `${whole}.${String(fraction).padStart(digits, '0').slice(0, digits)}`)),
          fc.constantFrom('1e3', '999999999999.99', '1000000000000', '0.001', '-0.01', '0', '-0'),
        );
      }
    }
  })();
  return noisy ? fc.oneof({ weight: 30, arbitrary: valid }, { weight: 1, arbitrary: junk }) : valid;
}

/** What zod parses the body into, or undefined when it refuses it. */
function zodReads(schema: z.ZodType, body: unknown): unknown {
  const result = schema.safeParse(body);
  return result.success ? result.data : undefined;
}

describe('body plans', () => {
  it('compile for most write routes (each listed route without one parses with zod)', () => {
    const without = bodyRoutes.filter((route) => planOf(route.body) === undefined).map((route) => route.id);
    // Each of these has a refinement of its own (a date not in the future, start before end, scopes
    // that do not repeat, a journal line's debit-or-credit rule) or a URL.
    expect(without.length).toBeLessThanOrEqual(12);
    expect(bodyRoutes.length - without.length).toBeGreaterThanOrEqual(81);
  });

  describe.each(bodyRoutes.filter((route) => planOf(route.body) !== undefined).map((route) => [route.id, route] as const))('%s', (_, route) => {
    it('reads every body exactly as zod parses it, and leaves every body zod refuses to zod', () => {
      const plan = planOf(route.body)!;
      let accepted = 0;
      fc.assert(
        // Through JSON, as a request's body arrives: own keys only (`__proto__` included), no undefined, no -0.
        fc.property(
          fc.oneof(arbitraryOf(plan, false), arbitraryOf(plan, true)).map((value) => JSON.parse(JSON.stringify(value)) as unknown),
          (body) => {
            const expected = zodReads(route.body, body);
            const read = readBody(plan, body);
            if (expected === undefined) expect(read).toBeUndefined();
            else {
              accepted++;
              expect(read).toEqual(expected);
              expect(JSON.stringify(read)).toBe(JSON.stringify(expected));
            }
          },
        ),
        { numRuns: 150 },
      );
      // The generator reaches bodies zod accepts, or the comparison above would prove little.
      expect(accepted).toBeGreaterThan(0);
    });
  });

  it('reads a location as zod does: trimmed text, absent optional fields left out, unknown and __proto__ keys left to zod', () => {
    const plan = planOf(LocationCreate)!;
    expect(readBody(plan, { name: '  Main  ', country: 'NL', is_active: false })).toEqual({ name: 'Main', country: 'NL', is_active: false });
    expect(Object.keys(readBody(plan, { country: null, name: 'A' })!)).toEqual(['name', 'country']);
    expect(readBody(plan, { name: '   ' })).toBeUndefined();
    expect(readBody(plan, { name: 'A', colour: 'red' })).toBeUndefined();
    expect(readBody(plan, JSON.parse('{"name":"A","__proto__":{"x":1}}'))).toBeUndefined();
    expect(readBody(plan, { name: 'A', metadata: JSON.parse('{"__proto__":"x"}') })).toBeUndefined();
    expect(readBody(plan, { name: 'A', metadata: { a: 'b' } })).toEqual({ name: 'A', metadata: { a: 'b' } });
    expect(readBody(plan, { name: 'A', metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) })).toBeUndefined();
  });
});
