import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { entityResourceParams } from '../../shared/schemas/parameters';
import { getEvent } from '../../shared/webhooks/event-store';
import { Event } from '../../shared/webhooks/schemas/event';

export const route = defineRoute({
  id: 'events.get',
  method: 'GET',
  path: '/v1/entities/{entity_id}/events/{id}',
  tag: 'Events',
  summary: 'Retrieve an event',
  description: 'An event of the last 90 days or more (the retention period); older events are a 404.',
  scopes: ['webhooks:read'],
  params: entityResourceParams,
  response: Event,
  handler: (ctx, { params }) => {
    requireOwnEntity(ctx, params.entity_id);
    return getEvent(ctx.db, ctx.entityId, params.id);
  },
});

export const handler = lambdaHandler(route);
