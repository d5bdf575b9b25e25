/**
 * Route table entries: API keys of the caller's entity (shared/tenants). Keys are the handler
 * modules' paths under functions/ (see ../routes.ts).
 */
import type { RouteModule } from './route-module';
import * as createApiKey from '../api-keys/create-api-key';
import * as getApiKey from '../api-keys/get-api-key';
import * as listApiKeys from '../api-keys/list-api-keys';
import * as revokeApiKey from '../api-keys/revoke-api-key';
import * as rollApiKey from '../api-keys/roll-api-key';
import * as updateApiKey from '../api-keys/update-api-key';

export const TENANT_ROUTES = {
  'api-keys/create-api-key': createApiKey,
  'api-keys/get-api-key': getApiKey,
  'api-keys/list-api-keys': listApiKeys,
  'api-keys/revoke-api-key': revokeApiKey,
  'api-keys/roll-api-key': rollApiKey,
  'api-keys/update-api-key': updateApiKey,
} satisfies Record<string, RouteModule>;
