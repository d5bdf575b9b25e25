import { z } from 'zod';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { buildOpenApiDocument } from '../../shared/http/openapi';
import { definePublicRoute } from '../../shared/http/route';

let document: Record<string, unknown> | undefined;

export const route = definePublicRoute({
  id: 'platform.openapi',
  method: 'GET',
  path: '/v1/openapi.json',
  tag: 'Platform',
  summary: 'The OpenAPI 3.1 document of this API',
  description: 'Generated from the route table; no authentication.',
  response: z.record(z.string(), z.unknown()),
  handler: async () => {
    // Loaded lazily: the route table imports this module, and the document is built once per process.
    if (!document) document = buildOpenApiDocument((await import('../routes')).ROUTES);
    return document;
  },
});

export const handler = lambdaHandler(route);
