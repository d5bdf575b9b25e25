/**
 * Webhook endpoints. The signing secret is stored as it is, because the API signs every delivery
 * with it (a hash would not do); it never leaves the API after the response that created or
 * rolled it. A rolled secret stays valid, and deliveries carry a signature with it too, for 24 hours.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { updateSet } from '../db/sql';
import { ApiError } from '../errors';
import { newId } from '../ids';
import type { WebhookEndpoint, WebhookEndpointWithSecret } from './schemas/webhook-endpoint';

/** How long a rolled secret keeps verifying. */
const PREVIOUS_SECRET_HOURS = 24;

const COLUMNS = `id, 'webhook_endpoint' AS object, entity_id, url, description, enabled_events, status, disabled_reason,
  CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS previous_secret_expires_at,
  metadata, created_at, updated_at`;

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export async function getWebhookEndpoint(db: Db, entityId: string, endpointId: string, options: { lock?: boolean } = {}): Promise<WebhookEndpoint> {
  const row = await db.maybeOne<WebhookEndpoint>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE entity_id = $1 AND id = $2 ${options.lock ? 'FOR UPDATE' : ''}`,
    [entityId, endpointId],
  );
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such webhook endpoint in this entity.' });
  return row;
}

export function listWebhookEndpoints(db: Db, entityId: string, page: PageRequest): Promise<Page<WebhookEndpoint>> {
  return keysetPage<WebhookEndpoint>(db, { table: 'webhook_endpoints', alias: 'w', select: COLUMNS, where: ['w.entity_id = $1'], params: [entityId] }, page);
}

export interface NewEndpoint {
  url: string;
  enabledEvents: string[];
  description?: string | null;
  metadata?: Record<string, string>;
}

export async function insertWebhookEndpoint(db: Db, entityId: string, input: NewEndpoint): Promise<WebhookEndpointWithSecret> {
  const id = newId();
  const secret = newSecret();
  await db.query(`INSERT INTO webhook_endpoints (id, entity_id, url, description, enabled_events, secret, metadata) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
    id,
    entityId,
    input.url,
    input.description ?? null,
    input.enabledEvents,
    secret,
    input.metadata ?? {},
  ]);
  return { ...(await getWebhookEndpoint(db, entityId, id)), secret };
}

export async function updateWebhookEndpoint(
  db: Db,
  entityId: string,
  endpointId: string,
  patch: { url?: string; enabled_events?: string[]; description?: string | null; metadata?: Record<string, string> },
): Promise<WebhookEndpoint> {
  await getWebhookEndpoint(db, entityId, endpointId, { lock: true });
  const params: unknown[] = [entityId, endpointId];
  const set = updateSet(patch, ['url', 'enabled_events', 'description', 'metadata'], params);
  if (set) await db.query(`UPDATE webhook_endpoints ${set} WHERE entity_id = $1 AND id = $2`, params);
  return getWebhookEndpoint(db, entityId, endpointId);
}

export async function setWebhookEndpointStatus(
  db: Db,
  entityId: string,
  endpointId: string,
  status: 'enabled' | 'disabled',
  reason: 'user' | 'gone' | 'failing' = 'user',
): Promise<WebhookEndpoint> {
  const current = await getWebhookEndpoint(db, entityId, endpointId, { lock: true });
  if (current.status === status) return current;
  await db.query(`UPDATE webhook_endpoints SET status = $3, disabled_reason = $4, updated_at = now() WHERE entity_id = $1 AND id = $2`, [
    entityId,
    endpointId,
    status,
    status === 'disabled' ? reason : null,
  ]);
  return getWebhookEndpoint(db, entityId, endpointId);
}

export async function deleteWebhookEndpoint(db: Db, entityId: string, endpointId: string): Promise<void> {
  await getWebhookEndpoint(db, entityId, endpointId, { lock: true });
  await db.query('DELETE FROM webhook_endpoints WHERE entity_id = $1 AND id = $2', [entityId, endpointId]);
}

/** A new secret; the current one becomes the previous one, valid for PREVIOUS_SECRET_HOURS more. */
export async function rollWebhookEndpointSecret(db: Db, entityId: string, endpointId: string): Promise<WebhookEndpointWithSecret> {
  await getWebhookEndpoint(db, entityId, endpointId, { lock: true });
  const secret = newSecret();
  await db.query(
    `UPDATE webhook_endpoints SET previous_secret = secret, secret = $3,
       previous_secret_expires_at = now() + make_interval(hours => $4), updated_at = now()
     WHERE entity_id = $1 AND id = $2`,
    [entityId, endpointId, secret, PREVIOUS_SECRET_HOURS],
  );
  return { ...(await getWebhookEndpoint(db, entityId, endpointId)), secret };
}

/** The secrets a delivery signs with: the current one, and the previous one while it is valid. */
export async function signingSecrets(db: Db, entityId: string, endpointId: string): Promise<string[]> {
  const row = await db.one<{ secret: string; previous_secret: string | null }>(
    `SELECT secret, CASE WHEN previous_secret_expires_at > now() THEN previous_secret END AS previous_secret
       FROM webhook_endpoints WHERE entity_id = $1 AND id = $2`,
    [entityId, endpointId],
  );
  return row.previous_secret ? [row.secret, row.previous_secret] : [row.secret];
}
