/**
 * Route table entries: events and the webhook endpoints that receive them, with their deliveries
 * (shared/webhooks). Keys are the handler modules' paths under functions/ (see ../routes.ts).
 */
import type { RouteModule } from './route-module';
import * as listEvents from '../events/list-events';
import * as getEvent from '../events/get-event';
import * as resendEvent from '../events/resend-event';
import * as listWebhookDeliveries from '../webhook-endpoints/list-webhook-deliveries';
import * as testWebhookEndpoint from '../webhook-endpoints/test-webhook-endpoint';
import * as createWebhookEndpoint from '../webhook-endpoints/create-webhook-endpoint';
import * as listWebhookEndpoints from '../webhook-endpoints/list-webhook-endpoints';
import * as getWebhookEndpoint from '../webhook-endpoints/get-webhook-endpoint';
import * as updateWebhookEndpoint from '../webhook-endpoints/update-webhook-endpoint';
import * as deleteWebhookEndpoint from '../webhook-endpoints/delete-webhook-endpoint';
import * as disableWebhookEndpoint from '../webhook-endpoints/disable-webhook-endpoint';
import * as enableWebhookEndpoint from '../webhook-endpoints/enable-webhook-endpoint';
import * as rollWebhookEndpointSecret from '../webhook-endpoints/roll-webhook-endpoint-secret';

export const WEBHOOK_ROUTES = {
  'events/list-events': listEvents,
  'events/get-event': getEvent,
  'events/resend-event': resendEvent,
  'webhook-endpoints/list-webhook-deliveries': listWebhookDeliveries,
  'webhook-endpoints/test-webhook-endpoint': testWebhookEndpoint,
  'webhook-endpoints/create-webhook-endpoint': createWebhookEndpoint,
  'webhook-endpoints/list-webhook-endpoints': listWebhookEndpoints,
  'webhook-endpoints/get-webhook-endpoint': getWebhookEndpoint,
  'webhook-endpoints/update-webhook-endpoint': updateWebhookEndpoint,
  'webhook-endpoints/delete-webhook-endpoint': deleteWebhookEndpoint,
  'webhook-endpoints/disable-webhook-endpoint': disableWebhookEndpoint,
  'webhook-endpoints/enable-webhook-endpoint': enableWebhookEndpoint,
  'webhook-endpoints/roll-webhook-endpoint-secret': rollWebhookEndpointSecret,
} satisfies Record<string, RouteModule>;
