/**
 * `npm run client:generate`: writes client/schema.d.ts from the document the route table
 * generates (the one the API serves).
 */
import { writeFileSync } from 'node:fs';
import { ROUTES } from '../functions/routes';
import { parseCommandLine } from '../local/command-line';
import { buildOpenApiDocument } from '../shared/http/openapi';
import { schemaTypesOf } from './schema-types';

parseCommandLine('usage: npm run client:generate   (no arguments; writes client/schema.d.ts from the route table)', {});

const target = new URL('./schema.d.ts', import.meta.url);
writeFileSync(target, await schemaTypesOf(buildOpenApiDocument(ROUTES)));
console.log(`wrote ${target.pathname}`);
