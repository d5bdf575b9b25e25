/**
 * Delivery of events to webhook endpoints, at least once. A delivery row (one per endpoint and
 * event) is the retry queue: a dispatcher claims due rows with FOR UPDATE SKIP LOCKED and leases
 * them, POSTs the event signed the Standard Webhooks way, and records the attempt. A 2xx within the
 * timeout is success; 410 Gone disables the endpoint; anything else (another status, a timeout, a
 * refused connection, a redirect, which is never followed) is retried on the backoff schedule until
 * it runs out. Each attempt is its own HTTP call with its own timeout, so a slow endpoint holds up
 * only its own deliveries.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { withTransaction, type Db } from '../db/database';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { createEventRecorder, type EventEnvelope } from '../events/outbox';
import { publishCommitted } from '../events/publisher';
import { ApiError } from '../errors';
import { newId } from '../ids';
import { METRIC_NAMES } from '../metric-names';
import { logger, MetricUnit, publishMetrics } from '../powertools';
import { getWebhookEndpoint, setWebhookEndpointStatus, signingSecrets } from './endpoint-store';
import type { WebhookDelivery, WebhookDeliveryAttempt } from './schemas/webhook-delivery';
import { checkEndpointAddress, parseEndpointUrl, urlPolicy, type UrlPolicy } from './url-policy';
import { recordSuccess } from './success-records';
import { entityMode } from '../tenants/tenant-reads';

/** Seconds before each attempt: the first is immediate, then about three days of retries. */
const DEFAULT_RETRY_SCHEDULE = [0, 5, 300, 1800, 7200, 18000, 36000, 36000, 36000];
const RESPONSE_EXCERPT_BYTES = 1024;

export interface DeliveryConfig {
  /** Seconds to wait before attempt n+1 (index 0: the first attempt). */
  schedule: number[];
  timeoutMs: number;
}

/** WEBHOOK_RETRY_SCHEDULE (comma-separated seconds) and WEBHOOK_TIMEOUT_MS (15000) override the defaults; tests shorten both. */
export function deliveryConfig(env: NodeJS.ProcessEnv = process.env): DeliveryConfig {
  const schedule = env.WEBHOOK_RETRY_SCHEDULE ? env.WEBHOOK_RETRY_SCHEDULE.split(',').map(Number) : DEFAULT_RETRY_SCHEDULE;
  if (schedule.length === 0 || schedule.some((seconds) => !Number.isFinite(seconds) || seconds < 0)) {
    throw new Error(`WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds (got ${env.WEBHOOK_RETRY_SCHEDULE})`);
  }
  const timeoutMs = Number(env.WEBHOOK_TIMEOUT_MS ?? 15_000);
  if (!(timeoutMs > 0)) throw new Error(`WEBHOOK_TIMEOUT_MS must be a positive number (got ${env.WEBHOOK_TIMEOUT_MS})`);
  return { schedule, timeoutMs };
}

/** Up to 10% either way, so endpoints that failed together are not retried in lockstep. */
const withJitter = (seconds: number) => seconds * (0.9 + Math.random() * 0.2);

type DeliveryKind = WebhookDelivery['kind'];

const DELIVERY_COLUMNS = `id, 'webhook_delivery' AS object, endpoint_id, event_id, event_type, kind, status, attempt_count, next_attempt_at, created_at`;

/** Queues one delivery, due now. */
export async function queueDelivery(
  db: Db,
  entityId: string,
  input: { endpointId: string; eventId: string; eventType: string; kind: DeliveryKind; payload?: unknown },
): Promise<WebhookDelivery> {
  const id = newId();
  await db.query(
    `INSERT INTO webhook_deliveries (id, entity_id, endpoint_id, event_id, event_type, kind, payload, next_attempt_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now())`,
    [id, entityId, input.endpointId, input.eventId, input.eventType, input.kind, input.payload === undefined ? null : JSON.stringify(input.payload)],
  );
  return db.one<WebhookDelivery>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = $1`, [id]);
}

/** A delivery a dispatcher holds the lease of; endpoint_id lets it keep one endpoint from crowding out the others. */
export interface ClaimedDelivery {
  id: string;
  entity_id: string;
  endpoint_id: string;
  /**
   * What its first attempt sends, read when it was queued leased to the caller: the attempt then
   * skips the transaction that would read it again (nobody else can take a leased delivery).
   */
  prepared?: { url: string; secrets: string[]; payload: unknown };
}

export interface QueueOptions {
  /** How long a leased delivery is held for its first attempt. */
  leaseMs?: number;
  /** Which endpoints' deliveries to queue leased to the caller; all of them when leaseMs is set and this is absent. */
  lease?: (endpointId: string) => boolean;
}

/**
 * Queues a committed event for every enabled endpoint of its entity and mode that subscribes to
 * its type. Safe to repeat (the bus and the outbox sweeper deliver at least once): an event is
 * queued for an endpoint once. Returns the deliveries queued and whether each is leased. The
 * event is read from the outbox, so only a committed event of the entity is sent, as stored.
 *
 * A leased delivery is queued already claimed by the caller, which attempts it at once (the
 * dispatcher function on AWS, the local dispatcher for an endpoint with a free slot): nobody else
 * takes it before the lease runs out, and if the caller dies it comes back then. The others are
 * due now, for whichever dispatcher claims them first.
 */
export function queueEvent(event: EventEnvelope, options: QueueOptions = {}): Promise<(ClaimedDelivery & { leased: boolean })[]> {
  return withTransaction({ role: 'app_user', entityId: event.entity_id }, async (db) => {
    const endpoints = await db.query<{ id: string; url: string; secret: string; previous_secret: string | null; payload: unknown }>(
      `SELECT w.id, w.url, w.secret, CASE WHEN w.previous_secret_expires_at > now() THEN w.previous_secret END AS previous_secret, o.payload
         FROM webhook_endpoints w JOIN event_outbox o ON o.entity_id = w.entity_id AND o.id = $2
        WHERE w.entity_id = $1 AND w.status = 'enabled' AND ($3 = ANY(w.enabled_events) OR '*' = ANY(w.enabled_events))`,
      [event.entity_id, event.id, event.type],
    );
    if (endpoints.length === 0) return [];
    const rows = endpoints.map((endpoint) => ({ endpoint, id: newId(), leased: options.leaseMs !== undefined && (options.lease?.(endpoint.id) ?? true) }));
    const inserted = await db.query<{ id: string; entity_id: string; endpoint_id: string }>(
      `INSERT INTO webhook_deliveries (id, entity_id, endpoint_id, event_id, event_type, kind, next_attempt_at)
       SELECT row.id, $1, row.endpoint_id, $2, $3, 'event', now() + make_interval(secs => row.delay)
         FROM unnest($4::uuid[], $5::uuid[], $6::float8[]) AS row (id, endpoint_id, delay)
       ON CONFLICT (endpoint_id, event_id) WHERE kind = 'event' DO NOTHING RETURNING id, entity_id, endpoint_id`,
      [
        event.entity_id,
        event.id,
        event.type,
        rows.map((row) => row.id),
        rows.map((row) => row.endpoint.id),
        rows.map((row) => (row.leased ? options.leaseMs! / 1000 : 0)),
      ],
    );
    const insertedIds = new Set(inserted.map((row) => row.id));
    return rows
      .filter((row) => insertedIds.has(row.id))
      .map(({ endpoint, id, leased }) => ({
        id,
        entity_id: event.entity_id,
        endpoint_id: endpoint.id,
        leased,
        prepared: leased
          ? {
              url: endpoint.url,
              secrets: endpoint.previous_secret ? [endpoint.secret, endpoint.previous_secret] : [endpoint.secret],
              payload: endpoint.payload,
            }
          : undefined,
      }));
  });
}

/**
 * Claims up to `limit` due deliveries of any entity and leases them past the attempt's timeout: a
 * concurrent dispatcher skips them, and a crashed one's leases run out and they come back. At most
 * `perEndpoint` deliveries of one endpoint are taken (oldest due first), fewer for an endpoint the
 * caller already has attempts in flight to (`busy`: its remaining room; 0 leaves it out), so a
 * backlog at one slow endpoint never fills a dispatcher's every slot while other endpoints'
 * deliveries wait behind it.
 */
export function claimDueDeliveries(
  limit: number,
  leaseMs: number,
  options: { perEndpoint?: number; busy?: ReadonlyMap<string, number>; endpointId?: string } = {},
): Promise<ClaimedDelivery[]> {
  const perEndpoint = options.perEndpoint ?? limit;
  if (options.endpointId !== undefined) {
    return claimDueDeliveriesOf(options.endpointId, Math.min(limit, options.busy?.get(options.endpointId) ?? perEndpoint), leaseMs);
  }
  const busy = [...(options.busy ?? new Map<string, number>())];
  return withTransaction({ role: 'app_worker' }, (db) =>
    db.query<ClaimedDelivery>(
      `WITH busy AS (SELECT * FROM unnest($4::uuid[], $5::int[]) AS b (endpoint_id, room))
       UPDATE webhook_deliveries SET next_attempt_at = now() + make_interval(secs => $2)
        WHERE id IN (
          SELECT ranked.id FROM (
            SELECT due.id, due.endpoint_id, due.next_attempt_at,
                   row_number() OVER (PARTITION BY due.endpoint_id ORDER BY due.next_attempt_at, due.id) AS rank
              FROM (SELECT id, endpoint_id, next_attempt_at FROM webhook_deliveries
                     WHERE status = 'pending' AND next_attempt_at <= now()
                       AND endpoint_id NOT IN (SELECT endpoint_id FROM busy WHERE room <= 0)
                     ORDER BY next_attempt_at LIMIT $1 * 4 FOR UPDATE SKIP LOCKED) AS due
          ) AS ranked LEFT JOIN busy ON busy.endpoint_id = ranked.endpoint_id
          WHERE ranked.rank <= COALESCE(busy.room, $3)
          ORDER BY ranked.next_attempt_at LIMIT $1)
        RETURNING id, entity_id, endpoint_id`,
      [limit, leaseMs / 1000, perEndpoint, busy.map(([id]) => id), busy.map(([, room]) => room)],
    ),
  );
}

/** The due deliveries of one endpoint, oldest first (the endpoint's backlog, by its own index). */
function claimDueDeliveriesOf(endpointId: string, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  return withTransaction({ role: 'app_worker' }, (db) =>
    db.query<ClaimedDelivery>(
      `UPDATE webhook_deliveries SET next_attempt_at = now() + make_interval(secs => $3)
        WHERE id IN (
          SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending' AND next_attempt_at <= now()
           ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING id, entity_id, endpoint_id`,
      [endpointId, limit, leaseMs / 1000],
    ),
  );
}

/** Gives claimed deliveries back before any attempt: their lease ends and they are due at once. */
export async function releaseDeliveries(ids: string[]): Promise<void> {
  await withTransaction({ role: 'app_worker' }, (db) =>
    db.query(`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = ANY($1::uuid[]) AND status = 'pending'`, [ids]),
  );
}

interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  excerpt: string | null;
  error: string | null;
}

/** At most RESPONSE_EXCERPT_BYTES of UTF-8, never a cut character or a NUL (PostgreSQL text refuses NUL). */
function excerptOf(bytes: Buffer): string {
  let text = bytes.subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8').replaceAll('\u0000', '\uFFFD');
  while (Buffer.byteLength(text) > RESPONSE_EXCERPT_BYTES) text = text.slice(0, -1);
  return text;
}

/**
 * One signed POST. The URL is checked again (https, and every address its host resolves to), and
 * the connection goes to the address that was checked, so DNS cannot swap in another in between.
 */
async function sendSigned(url: string, secrets: string[], body: string, messageId: string, config: DeliveryConfig, policy: UrlPolicy): Promise<AttemptResult> {
  const started = Date.now();
  let target: URL;
  let address: string;
  try {
    target = parseEndpointUrl(url, policy);
    [address] = await checkEndpointAddress(target, policy);
  } catch (error) {
    return { statusCode: null, durationMs: Date.now() - started, excerpt: null, error: error instanceof ApiError ? error.message : 'the url was refused' };
  }
  const timestamp = new Date();
  const signature = secrets.map((secret) => new Webhook(secret).sign(messageId, timestamp, body)).join(' ');
  const family = isIP(address);
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, durationMs: Date.now() - started });
    };
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(
      target,
      {
        method: 'POST',
        lookup,
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'bizops-webhooks/1',
          'webhook-id': messageId,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          clearTimeout(timer);
          const statusCode = response.statusCode ?? null;
          const redirect = statusCode !== null && statusCode >= 300 && statusCode < 400;
          finish({ statusCode, excerpt: excerptOf(Buffer.concat(chunks)), error: redirect ? 'redirects are not followed' : null });
        };
        response.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
          // Enough for the excerpt: the rest of a large body is not read.
          if (size >= RESPONSE_EXCERPT_BYTES) {
            response.destroy();
            done();
          }
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => request.destroy(new Error(`no response within ${config.timeoutMs} ms`)), config.timeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      finish({ statusCode: null, excerpt: null, error: error.message.slice(0, 500) });
    });
    request.end(body);
  });
}

interface DueDelivery {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  url: string;
  endpoint_status: string;
  payload: unknown;
}

/** Finds what an attempt sends, in the delivery's entity; undefined when it is no longer due. */
function loadDue(db: Db, deliveryId: string): Promise<DueDelivery | undefined> {
  return db.maybeOne<DueDelivery>(
    `SELECT d.id, d.endpoint_id, d.event_id, d.event_type, d.status, d.attempt_count, w.url, w.status AS endpoint_status,
            COALESCE(d.payload, o.payload) AS payload
       FROM webhook_deliveries d JOIN webhook_endpoints w ON w.entity_id = d.entity_id AND w.id = d.endpoint_id
       LEFT JOIN event_outbox o ON o.id = d.event_id
      WHERE d.id = $1 AND d.status = 'pending' FOR UPDATE OF d SKIP LOCKED`,
    [deliveryId],
  );
}

/**
 * Whether the endpoint answered any attempt with success since this delivery was queued: a
 * delivery that ran out of its schedule (about three days) with none means the endpoint failed
 * every attempt for three days.
 */
async function succeededSince(db: Db, endpointId: string, deliveryId: string): Promise<boolean> {
  const row = await db.maybeOne(
    `SELECT 1 FROM webhook_delivery_attempts
      WHERE endpoint_id = $1 AND succeeded AND created_at >= (SELECT created_at FROM webhook_deliveries WHERE id = $2) LIMIT 1`,
    [endpointId, deliveryId],
  );
  return row !== undefined;
}

/** Disables an endpoint on the API's own initiative and records webhook_endpoint.disabled; the events to publish after commit. */
async function disableEndpoint(db: Db, entityId: string, endpointId: string, reason: 'gone' | 'failing'): Promise<EventEnvelope[]> {
  const current = await getWebhookEndpoint(db, entityId, endpointId, { lock: true });
  if (current.status === 'disabled') return [];
  const endpoint = await setWebhookEndpointStatus(db, entityId, endpointId, 'disabled', reason);
  const recorder = createEventRecorder(db, { entityId, mode: await entityMode(db, entityId), requestId: null });
  await recorder.record('webhook_endpoint.disabled', endpoint);
  logger.warn('webhook endpoint disabled', { endpoint: endpointId, reason });
  return recorder.recorded;
}

/** A delivery just queued leased to the caller: its first attempt, with what was read as it was queued. */
function preparedDue(claimed: ClaimedDelivery, prepared: NonNullable<ClaimedDelivery['prepared']>) {
  const payload = prepared.payload as { id: string; type: string };
  return {
    id: claimed.id,
    endpoint_id: claimed.endpoint_id,
    event_id: payload.id,
    event_type: payload.type,
    attempt_count: 0,
    url: prepared.url,
    secrets: prepared.secrets,
    payload,
  };
}

/** Runs one attempt of a claimed delivery and records it. */
export async function attemptDelivery(claimed: ClaimedDelivery, config: DeliveryConfig, policy: UrlPolicy = urlPolicy()): Promise<void> {
  const scope = { role: 'app_user' as const, entityId: claimed.entity_id };
  const due = claimed.prepared
    ? preparedDue(claimed, claimed.prepared)
    : await withTransaction(scope, async (db) => {
        const row = await loadDue(db, claimed.id);
        if (!row) return undefined;
        if (row.endpoint_status !== 'enabled' || row.payload === null) {
          // A disabled endpoint gets nothing more; an event past retention cannot be sent.
          await db.query(`UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, updated_at = now() WHERE id = $1`, [row.id]);
          return undefined;
        }
        return { ...row, secrets: await signingSecrets(db, claimed.entity_id, row.endpoint_id) };
      });
  if (!due) return;
  const body = JSON.stringify(due.payload);
  const result = await sendSigned(due.url, due.secrets, body, due.event_id, config, policy);
  const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const gone = result.statusCode === 410;
  const attemptNumber = due.attempt_count + 1;
  const retryIn = !succeeded && !gone && attemptNumber < config.schedule.length ? withJitter(config.schedule[attemptNumber]) : undefined;
  if (succeeded) {
    await recordSuccess(claimed.entity_id, {
      deliveryId: due.id,
      endpointId: due.endpoint_id,
      eventId: due.event_id,
      eventType: due.event_type,
      attemptNumber,
      statusCode: result.statusCode!,
      durationMs: result.durationMs,
      excerpt: result.excerpt,
    });
    return;
  }
  const recorded = await withTransaction(scope, async (db) => {
    const next = retryIn === undefined ? null : new Date(Date.now() + retryIn * 1000).toISOString();
    const status = succeeded ? 'succeeded' : next ? 'pending' : 'failed';
    await db.query(`UPDATE webhook_deliveries SET status = $2, attempt_count = $3, next_attempt_at = $4, updated_at = now() WHERE id = $1`, [
      due.id,
      status,
      attemptNumber,
      next,
    ]);
    await db.query(
      `INSERT INTO webhook_delivery_attempts (id, entity_id, delivery_id, endpoint_id, event_id, event_type, attempt_number, succeeded, status_code, duration_ms, response_excerpt, error, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        newId(),
        claimed.entity_id,
        due.id,
        due.endpoint_id,
        due.event_id,
        due.event_type,
        attemptNumber,
        succeeded,
        result.statusCode,
        result.durationMs,
        result.excerpt,
        result.error,
        next,
      ],
    );
    if (gone) return disableEndpoint(db, claimed.entity_id, due.endpoint_id, 'gone');
    if (status === 'failed' && !(await succeededSince(db, due.endpoint_id, due.id))) {
      return disableEndpoint(db, claimed.entity_id, due.endpoint_id, 'failing');
    }
    return [];
  });
  await publishCommitted(claimed.entity_id, recorded);
  if (!succeeded) {
    logger.info('webhook delivery failed', { delivery: due.id, attempt: attemptNumber, status: result.statusCode, retry: retryIn !== undefined });
    // Every failed attempt, retried or final: the stage dashboard's WebhookDeliveryFailures.
    publishMetrics([{ name: METRIC_NAMES.webhookDeliveryFailures, unit: MetricUnit.Count, value: 1 }]);
  }
}

/** The attempts of one endpoint's deliveries, newest first. */
export async function listDeliveryAttempts(db: Db, entityId: string, endpointId: string, page: PageRequest): Promise<Page<WebhookDeliveryAttempt>> {
  await getWebhookEndpoint(db, entityId, endpointId);
  return keysetPage<WebhookDeliveryAttempt>(
    db,
    {
      table: 'webhook_delivery_attempts',
      alias: 'a',
      select: `a.id, 'webhook_delivery_attempt' AS object, a.delivery_id, a.endpoint_id, a.event_id, a.event_type, a.attempt_number, a.succeeded,
        a.status_code, a.duration_ms, a.response_excerpt, a.error, a.next_attempt_at, a.created_at`,
      where: ['a.entity_id = $1', 'a.endpoint_id = $2'],
      params: [entityId, endpointId],
    },
    page,
  );
}
