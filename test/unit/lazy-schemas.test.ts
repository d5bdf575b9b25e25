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
