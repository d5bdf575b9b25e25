/**
 * The serving part of GET /docs/redoc.standalone.js: what its function's bundle is built on (infra/functions.ts). It
 * imports no zod, so a cold start compiles none; the declaration (get-docs-script.ts) adds what documents the route.
 */
import { publicHandler } from '../../shared/http/public-handler';
import { publicServing } from '../../shared/http/route';
import { loadRedocScript } from './redoc-script';

export const served = publicServing({
  id: 'platform.docs_script',
  method: 'GET',
  path: '/docs/redoc.standalone.js',
  contentType: 'text/javascript; charset=utf-8',
  handler: () => loadRedocScript(),
});

export const handler = publicHandler(served);
