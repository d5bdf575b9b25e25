/**
 * The typed TypeScript client of the API: openapi-fetch over the types openapi-typescript
 * generates from the OpenAPI document (client/schema.d.ts, `npm run client:generate`). Paths,
 * parameters, bodies and responses are checked by the compiler against the document.
 *
 *   const api = createClient({ baseUrl: 'http://localhost:3000', apiKey });
 *   const { data, error } = await api.POST('/v1/locations', { body: { name: 'Main warehouse' } });
 *
 * The schema types themselves (components['schemas']['Order'], ...) are in ./schema.
 */
import createFetchClient, { type Client, type ClientOptions as FetchClientOptions } from 'openapi-fetch';
import type { paths } from './schema';

export interface ClientOptions {
  /** The API's root, without /v1 (e.g. http://localhost:3000). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`; omit it for the public routes (the document, /docs). */
  apiKey?: string;
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: FetchClientOptions['fetch'];
}

export type ApiClient = Client<paths>;

export function createClient({ baseUrl, apiKey, fetch }: ClientOptions): ApiClient {
  return createFetchClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
    ...(fetch && { fetch }),
  });
}
