import * as z from 'zod';
import { publicHandler } from '../../shared/http/public-handler';
import { loadOpenApiText } from '../../shared/http/openapi-source';
import { definePublicRoute, publicServing } from '../../shared/http/route';

// The function serves from this part alone: its bundle exports only the handler, and drops the
// declaration below, zod with it, since that call and the schema's are marked pure (infra/bundle.ts).
const served = publicServing({ id: 'platform.openapi', method: 'GET', path: '/v1/openapi.json', contentType: 'application/json', handler: loadOpenApiText });

export const route = /* @__PURE__ */ definePublicRoute(served, {
  tag: 'Platform',
  summary: 'The OpenAPI 3.1 document of this API',
  description:
    'Generated from the route table. `servers` names the deployment that serves it. Compressed when Accept-Encoding allows it (gzip on every deployment), with an ETag for If-None-Match.',
  response: /* @__PURE__ */ z.record(/* @__PURE__ */ z.string(), /* @__PURE__ */ z.unknown()),
});

export const handler = publicHandler(served);
