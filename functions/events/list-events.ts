import { isEventType } from '../../events/types';
import { ApiError } from '../../shared/errors';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { entityScopedParams } from '../../shared/schemas/parameters';
import { listEnvelope } from '../../shared/schemas/list';
import { listEvents } from '../../shared/webhooks/event-store';
import { Event, EventListQuery } from '../../shared/webhooks/schemas/event';

/** The type filter as one list: `type` or `types[]`, each a type of the catalog. */
function typeFilter(query: EventListQuery): string[] | undefined {
  if (query.type !== undefined && query.types !== undefined) {
    throw new ApiError('parameter_invalid', { param: 'types', hint: 'Pass type or types[], not both.' });
  }
  const types = query.types ?? (query.type === undefined ? undefined : [query.type]);
  types?.forEach((type, index) => {
    if (!isEventType(type)) {
      throw new ApiError('parameter_invalid', {
        param: query.types ? `types[${index}]` : 'type',
        hint: `${type} is not an event type; the event catalog in the API reference lists them.`,
      });
    }
  });
  return types;
}

export const route = defineRoute({
  id: 'events.list',
  method: 'GET',
  path: '/v1/entities/{entity_id}/events',
  tag: 'Events',
  summary: 'List events',
  description:
    "Every event of the key's entity and mode, newest first, kept for at least 90 days (the operator may configure longer): an integrator that was offline can catch up by walking the feed with starting_after (older) or ending_before (newer) alone, and de-duplicate on the event id. The events are the ones webhooks deliver, byte for byte the same object. Ordering is by created_at then id; an event whose transaction committed late can carry a created_at older than events already listed, so a consumer that polls for new events should re-read a short window (say a minute) before its newest seen event rather than rely on ending_before alone.",
  scopes: ['webhooks:read'],
  params: entityScopedParams,
  query: EventListQuery,
  response: listEnvelope(Event),
  list: true,
  handler: async (ctx, { params, query }) => {
    requireOwnEntity(ctx, params.entity_id);
    const types = typeFilter(query);
    const gte = query['created[gte]'];
    const lte = query['created[lte]'];
    if (gte && lte && Date.parse(gte) > Date.parse(lte)) {
      throw new ApiError('parameter_invalid', { param: 'created[lte]', hint: 'created[lte] must not be before created[gte].' });
    }
    return listEvents(ctx.db, ctx.entityId, { types, createdGte: gte, createdLte: lte, objectId: query.object_id }, query);
  },
});

export const handler = lambdaHandler(route);
