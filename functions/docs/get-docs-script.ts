import * as z from 'zod';
import { publicHandler } from '../../shared/http/public-handler';
import { definePublicRoute } from '../../shared/http/route';
import { loadRedocScript } from './redoc-script';

export const route = definePublicRoute({
  id: 'platform.docs_script',
  method: 'GET',
  path: '/docs/redoc.standalone.js',
  tag: 'Platform',
  summary: 'The script that renders the reference page',
  description: "Redoc's standalone bundle, as the redoc npm package ships it.",
  contentType: 'text/javascript; charset=utf-8',
  response: z.string(),
  handler: () => loadRedocScript(),
});

export const handler = publicHandler(route);
