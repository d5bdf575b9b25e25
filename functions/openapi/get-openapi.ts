import { z } from 'zod';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { loadOpenApiDocument } from '../../shared/http/openapi-source';
import { definePublicRoute } from '../../shared/http/route';

export const route = definePublicRoute({
  id: 'platform.openapi',
  method: 'GET',
  path: '/v1/openapi.json',
  tag: 'Platform',
  summary: 'The OpenAPI 3.1 document of this API',
  description: 'Generated from the route table; no authentication.',
  response: z.record(z.string(), z.unknown()),
  handler: () => loadOpenApiDocument(),
});

export const handler = lambdaHandler(route);
