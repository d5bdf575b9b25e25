import * as z from 'zod/mini';
import { definePublicRoute } from '../../shared/http/route';
import { handler, served } from './get-docs-script.serving';

export const route = definePublicRoute(served, {
  tag: 'Platform',
  summary: 'The script that renders the reference page',
  description: "Redoc's standalone bundle, as the redoc npm package ships it.",
  response: z.string(),
});

export { handler };
