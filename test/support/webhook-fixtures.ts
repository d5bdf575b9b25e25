/**
 * Security-matrix fixtures of the events feed and the webhook endpoint routes (spread into
 * route-fixtures.ts).
 */
import type { TestApi, TestEntity } from './harness';

type Params = Record<string, string>;

/** A public address literal: passes the URL rules without a DNS lookup. */
export const PUBLIC_WEBHOOK_URL = 'https://93.184.216.34/hooks';

let sequence = 0;

async function seedEvent(api: TestApi, owner: TestEntity): Promise<Params> {
  const location = await api.post(owner, '/v1/locations', { name: `Evented ${Date.now().toString(36)}-${sequence++}` });
  const row = await owner.sql((db) =>
    db.one<{ id: string }>(`SELECT id FROM event_outbox WHERE type = 'location.created' AND payload -> 'data' -> 'object' ->> 'id' = $1`, [location.id]),
  );
  return { entity_id: owner.entity.id, id: row.id };
}

async function seedEndpoint(api: TestApi, owner: TestEntity): Promise<Params> {
  const endpoint = await api.post(owner, `/v1/entities/${owner.entity.id}/webhook-endpoints`, { url: PUBLIC_WEBHOOK_URL, enabled_events: ['*'] });
  return { entity_id: owner.entity.id, id: endpoint.id };
}

const entityOnly = (_api: TestApi, owner: TestEntity) => Promise.resolve({ entity_id: owner.entity.id });

export const WEBHOOK_SEEDERS: Record<string, (api: TestApi, owner: TestEntity) => Promise<Params>> = {
  '/v1/entities/{entity_id}/events': entityOnly,
  '/v1/entities/{entity_id}/events/{id}': seedEvent,
  '/v1/entities/{entity_id}/webhook-endpoints': entityOnly,
  '/v1/entities/{entity_id}/webhook-endpoints/{id}': seedEndpoint,
  '/v1/entities/{entity_id}/webhook-endpoints/{id}/disable': seedEndpoint,
  '/v1/entities/{entity_id}/webhook-endpoints/{id}/enable': seedEndpoint,
  '/v1/entities/{entity_id}/webhook-endpoints/{id}/roll-secret': seedEndpoint,
  '/v1/entities/{entity_id}/webhook-endpoints/{id}/deliveries': seedEndpoint,
  '/v1/entities/{entity_id}/webhook-endpoints/{id}/test': seedEndpoint,
  '/v1/entities/{entity_id}/events/{id}/resend': seedEvent,
};

export const WEBHOOK_SAMPLE_BODIES: Record<string, unknown> = {
  'webhook_endpoints.create': { url: PUBLIC_WEBHOOK_URL, enabled_events: ['order.created'] },
  'webhook_endpoints.update': { description: 'Renamed endpoint' },
  'events.resend': { endpoint_id: '00000000-0000-4000-8000-000000000001' },
};
