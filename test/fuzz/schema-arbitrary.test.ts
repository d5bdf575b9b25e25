/**
 * The fuzzer's starting point must be valid, or its "one thing broken" requests never get past
 * validation: bodies generated from each operation's documented schema pass the route's own zod
 * schema (cross-field rules aside, which JSON Schema cannot state).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ROUTES } from '../../functions/routes';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { IGNORED_BODY_MEMBER } from '../../shared/http/request-input';
import type { RouteSchemas } from '../../shared/http/route';
import { operationsOf } from './operations';
import { valueArbitrary } from './schema-arbitrary';

const operations = operationsOf(buildOpenApiDocument(ROUTES)).filter((op) => op.body);
const routes = new Map(ROUTES.map((route) => [route.id, route as RouteSchemas]));

describe('bodies generated from the OpenAPI document', () => {
  it('pass the route body schema for every operation with a body, most of the time', () => {
    let valid = 0;
    let total = 0;
    const never: string[] = [];
    for (const op of operations) {
      // A POST without a body schema reads an empty object (EmptyBody); entity_id is dropped before parsing, as the server does.
      const schema = routes.get(op.id)!.body ?? z.strictObject({});
      const samples = fc.sample(
        valueArbitrary(op.body!, 'body', () => []),
        { seed: 1, numRuns: 40 },
      );
      const withoutIgnored = (sample: unknown) => {
        const { [IGNORED_BODY_MEMBER]: _ignored, ...rest } = sample as Record<string, unknown>;
        return rest;
      };
      const passed = samples.filter((sample) => schema.safeParse(withoutIgnored(sample)).success).length;
      if (passed === 0) never.push(op.id);
      valid += passed;
      total += samples.length;
    }
    expect(operations.length).toBeGreaterThan(60);
    expect(never).toEqual([]);
    expect(valid / total).toBeGreaterThan(0.8);
  });
});
