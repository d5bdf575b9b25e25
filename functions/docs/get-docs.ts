import * as z from 'zod/mini';
import { definePublicRoute } from '../../shared/http/route';
import { handler, served } from './get-docs.serving';

export const route = definePublicRoute(served, {
  tag: 'Platform',
  summary: 'The reference page of this API',
  description: 'This document rendered as a page (Redoc), with an Errors section that has an anchor per error code: the `doc_url` of every error envelope.',
  response: z.string(),
});

export { handler };
