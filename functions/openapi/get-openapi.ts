import * as z from 'zod';
import { publicHandler } from '../../shared/http/public-handler';
import { loadOpenApiText } from '../../shared/http/openapi-source';
import { definePublicRoute } from '../../shared/http/route';

export const route = definePublicRoute({
  id: 'platform.openapi',
  method: 'GET',
  path: '/v1/openapi.json',
  tag: 'Platform',
  summary: 'The OpenAPI 3.1 document of this API',
  description:
    'Generated from the route table. `servers` names the deployment that serves it. Compressed when Accept-Encoding allows it (gzip on every deployment), with an ETag for If-None-Match.',
  contentType: 'application/json',
  response: z.record(z.string(), z.unknown()),
  handler: loadOpenApiText,
});

export const handler = publicHandler(route);
