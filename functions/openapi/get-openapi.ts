import * as z from 'zod/mini';
import { definePublicRoute } from '../../shared/http/route';
import { handler, served } from './get-openapi.serving';

export const route = definePublicRoute(served, {
  tag: 'Platform',
  summary: 'The OpenAPI 3.1 document of this API',
  description:
    'Generated from the route table. `servers` names the deployment that serves it. Compressed when Accept-Encoding allows it (gzip on every deployment), with an ETag for If-None-Match.',
  response: z.record(z.string(), z.unknown()),
});

export { handler };
