/**
 * Route table entries: the API's own description (the OpenAPI document and the reference page with
 * its script). Keys are the handler modules' paths under functions/ (see ../routes.ts).
 */
import type { RouteModule } from './route-module';
import * as getOpenApi from '../openapi/get-openapi';
import * as getDocs from '../docs/get-docs';
import * as getDocsScript from '../docs/get-docs-script';

export const DOCS_ROUTES = {
  'openapi/get-openapi': getOpenApi,
  'docs/get-docs': getDocs,
  'docs/get-docs-script': getDocsScript,
} satisfies Record<string, RouteModule>;
