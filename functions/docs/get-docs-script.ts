import * as z from 'zod';
import { publicHandler } from '../../shared/http/public-handler';
import { definePublicRoute, publicServing } from '../../shared/http/route';
import { loadRedocScript } from './redoc-script';

// The function serves from this part alone: its bundle exports only the handler, and drops the
// declaration below, zod with it, since that call and the schema's are marked pure (infra/bundle.ts).
const served = publicServing({
  id: 'platform.docs_script',
  method: 'GET',
  path: '/docs/redoc.standalone.js',
  contentType: 'text/javascript; charset=utf-8',
  handler: () => loadRedocScript(),
});

export const route = /* @__PURE__ */ definePublicRoute(served, {
  tag: 'Platform',
  summary: 'The script that renders the reference page',
  description: "Redoc's standalone bundle, as the redoc npm package ships it.",
  response: /* @__PURE__ */ z.string(),
});

export const handler = publicHandler(served);
