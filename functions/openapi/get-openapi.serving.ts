/**
 * The serving part of GET /v1/openapi.json: what its function's bundle is built on (infra/functions.ts). It
 * imports no zod, so a cold start compiles none; the declaration (get-openapi.ts) adds what documents the route.
 */
import { publicHandler } from '../../shared/http/public-handler';
import { loadOpenApiText } from '../../shared/http/openapi-source';
import { publicServing } from '../../shared/http/route';

export const served = publicServing({
  id: 'platform.openapi',
  method: 'GET',
  path: '/v1/openapi.json',
  contentType: 'application/json',
  handler: loadOpenApiText,
});

export const handler = publicHandler(served);
