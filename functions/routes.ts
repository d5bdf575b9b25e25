/**
 * The route table: every endpoint of the API, once. Keys are the handler modules' paths under
 * functions/ (a test checks that each key is the module's real path): CDK bundles each key as
 * one Lambda function, the local gateway dispatches by the routes, and the OpenAPI document is
 * generated from them.
 */
import type { Route } from '../shared/http/route';
import * as createApiKey from './api-keys/create-api-key';
import * as getApiKey from './api-keys/get-api-key';
import * as listApiKeys from './api-keys/list-api-keys';
import * as revokeApiKey from './api-keys/revoke-api-key';
import * as rollApiKey from './api-keys/roll-api-key';
import * as updateApiKey from './api-keys/update-api-key';
import * as createLocation from './locations/create-location';
import * as deleteLocation from './locations/delete-location';
import * as getLocation from './locations/get-location';
import * as listLocations from './locations/list-locations';
import * as updateLocation from './locations/update-location';
import * as createManufacturer from './manufacturers/create-manufacturer';
import * as deleteManufacturer from './manufacturers/delete-manufacturer';
import * as getManufacturer from './manufacturers/get-manufacturer';
import * as listManufacturers from './manufacturers/list-manufacturers';
import * as updateManufacturer from './manufacturers/update-manufacturer';
import * as getOpenApi from './platform/get-openapi';

export interface RouteModule {
  route: Route;
  handler: unknown;
}

export const ROUTE_MODULES: Record<string, RouteModule> = {
  'api-keys/create-api-key': createApiKey,
  'api-keys/get-api-key': getApiKey,
  'api-keys/list-api-keys': listApiKeys,
  'api-keys/revoke-api-key': revokeApiKey,
  'api-keys/roll-api-key': rollApiKey,
  'api-keys/update-api-key': updateApiKey,
  'locations/create-location': createLocation,
  'locations/delete-location': deleteLocation,
  'locations/get-location': getLocation,
  'locations/list-locations': listLocations,
  'locations/update-location': updateLocation,
  'manufacturers/create-manufacturer': createManufacturer,
  'manufacturers/delete-manufacturer': deleteManufacturer,
  'manufacturers/get-manufacturer': getManufacturer,
  'manufacturers/list-manufacturers': listManufacturers,
  'manufacturers/update-manufacturer': updateManufacturer,
  'platform/get-openapi': getOpenApi,
};

export const ROUTES: Route[] = Object.values(ROUTE_MODULES).map((module) => module.route);
