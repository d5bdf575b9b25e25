/**
 * Resource schemas are built on first use (shared/schemas/lazy.ts): loading a function's code must
 * not build them, or every cold start pays for schemas its requests never parse.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** Named schemas (`.meta({ id })`) enter zod's registry when they are built. */
const namedSchemasBuilt = () => (z.globalRegistry as unknown as { _idmap: Map<string, unknown> })._idmap.size;

describe('resource schemas', () => {
  it('are not built by loading the routes; a request builds what it parses; the OpenAPI document builds them all', async () => {
    const { ROUTES } = await import('../../functions/routes');
    const { Location, LocationCreate } = await import('../../shared/inventory/schemas/location');
    expect(namedSchemasBuilt()).toBe(0);

    const created = LocationCreate.parse({ name: ' Main ', country: 'NL' });
    expect(created).toEqual({ name: 'Main', country: 'NL' });
    expect(namedSchemasBuilt()).toBe(0); // a body schema is not named; the Location response is still unbuilt
    expect(Location.safeParse({}).success).toBe(false);
    expect(namedSchemasBuilt()).toBe(1);

    const { buildOpenApiDocument } = await import('../../shared/http/openapi');
    const document = buildOpenApiDocument(ROUTES) as { components: { schemas: Record<string, unknown> } };
    expect(namedSchemasBuilt()).toBeGreaterThan(50);
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['Location', 'Order', 'VendorBill', 'Kit']));
  });
});

describe('schemas built on first use', () => {
  it('are the schema itself once built: instanceof, parsing, cloning and JSON Schema references', async () => {
    const { lazySchema, onFirstUse } = await import('../../shared/schemas/lazy');
    let builds = 0;
    const Part = lazySchema(() => (builds++, z.object({ sku: z.string() }).meta({ id: 'FirstUsePart' })));
    const Query = onFirstUse(() => (builds++, z.object({ limit: z.coerce.number().int().max(100).optional() })));
    expect(builds).toBe(0);
    expect(Part).toBeInstanceOf(z.ZodLazy);
    expect(Query).toBeInstanceOf(z.ZodObject);
    expect(Object.keys(Query.shape)).toEqual(['limit']);
    expect(Query.strict().safeParse({ limit: '7', extra: 1 }).success).toBe(false);
    expect(Query.parse({ limit: '7' })).toEqual({ limit: 7 });
    const Parts = z.object({ parts: z.array(Part), first: Part.optional() });
    expect(Parts.parse({ parts: [{ sku: 'A' }] })).toEqual({ parts: [{ sku: 'A' }] });
    expect(Parts.safeParse({ parts: [{ sku: 1 }] }).error?.issues[0].path).toEqual(['parts', 0, 'sku']);
    const json = z.toJSONSchema(Parts) as { properties: Record<string, unknown>; $defs: Record<string, unknown> };
    expect(json.properties.first).toEqual({ $ref: '#/$defs/FirstUsePart' });
    expect(Object.keys(json.$defs)).toEqual(['FirstUsePart']);
    expect(builds).toBe(2);
  });
});
