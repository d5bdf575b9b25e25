/**
 * Running deliveries. A `DeliveryPool` keeps attempts in flight up to a cap, and up to a smaller
 * cap per endpoint, so one slow or dead endpoint can hold only its own share of the slots: the
 * others' deliveries are claimed and sent past it (no head-of-line blocking). Three drivers use it:
 *
 * - `WebhookDispatcher`, in process (`npm start`, tests): queues every event the in-process bus
 *   publishes, leased to itself for the endpoints it has room for, and sends those at once; the
 *   rest, and every retry, it claims from the deliveries table as slots free up and on a timer.
 * - `dispatchEvent`, the dispatcher function on AWS (an EventBridge rule invokes it per event):
 *   queues the event leased to itself and sends it to every subscribed endpoint at once.
 * - `runDueDeliveries`, the retry function on AWS (every minute): claims due deliveries with
 *   FOR UPDATE SKIP LOCKED until its time is nearly up.
 */
import type { EventEnvelope } from '../events/outbox';
import type { InProcessEventBus } from '../events/publisher';
import { logger } from '../powertools';
import { attemptDelivery, claimDueDeliveries, deliveryConfig, queueEvent, releaseDeliveries, type ClaimedDelivery, type DeliveryConfig } from './delivery';
import { urlPolicy } from './url-policy';

export interface PoolOptions {
  /** Attempts in flight at most (WEBHOOK_CONCURRENCY, default 200). */
  concurrency?: number;
  /** Attempts in flight to one endpoint at most (WEBHOOK_ENDPOINT_CONCURRENCY, default 50). */
  endpointConcurrency?: number;
  config?: DeliveryConfig;
}

const positive = (value: string | undefined, fallback: number, name: string) => {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${name} must be a positive whole number (got ${value})`);
  return number;
};

/**
 * Attempts in flight, counted per endpoint. A slot is held from the moment it is reserved (before
 * the queueing or the one-endpoint claim that fills it is awaited) until its attempt ends, and a
 * general claim starts only what still fits when it returns, so concurrent claims and queueings
 * never overfill either cap.
 */
export class DeliveryPool {
  readonly config: DeliveryConfig;
  readonly concurrency: number;
  readonly endpointConcurrency: number;
  /** How long a claimed delivery is held: past its attempt's timeout, with room for the two transactions around it. */
  readonly leaseMs: number;
  private readonly inFlight = new Set<Promise<void>>();
  /** Slots held per endpoint: reserved, or with an attempt running. */
  private readonly perEndpoint = new Map<string, number>();
  /** Slots held in all: those of perEndpoint, and those a general claim holds for endpoints not known yet. */
  private held = 0;

  constructor(
    options: PoolOptions = {},
    private readonly onSlotFreed: (endpointId: string) => void = () => undefined,
  ) {
    this.config = options.config ?? deliveryConfig();
    this.concurrency = options.concurrency ?? positive(process.env.WEBHOOK_CONCURRENCY, 200, 'WEBHOOK_CONCURRENCY');
    this.endpointConcurrency = Math.min(
      this.concurrency,
      options.endpointConcurrency ?? positive(process.env.WEBHOOK_ENDPOINT_CONCURRENCY, 50, 'WEBHOOK_ENDPOINT_CONCURRENCY'),
    );
    this.leaseMs = this.config.timeoutMs + 30_000;
  }

  get size(): number {
    return this.held;
  }

  private countOf(endpointId: string): number {
    return this.perEndpoint.get(endpointId) ?? 0;
  }

  private add(endpointId: string, count: number): void {
    const left = this.countOf(endpointId) + count;
    if (left > 0) this.perEndpoint.set(endpointId, left);
    else this.perEndpoint.delete(endpointId);
  }

  /** Takes a slot for one delivery to the endpoint, when both caps allow; `start` or `release` it. */
  reserve(endpointId: string): boolean {
    if (this.roomFor(endpointId) === 0) return false;
    this.held++;
    this.add(endpointId, 1);
    return true;
  }

  release(endpointId: string): void {
    this.held--;
    this.add(endpointId, -1);
  }

  /** Runs one attempt of a delivery whose slot is held. */
  start(delivery: ClaimedDelivery): Promise<void> {
    const attempt = attemptDelivery(delivery, this.config, urlPolicy())
      .catch((error: unknown) => logger.warn('webhook attempt failed to run', { error, delivery: delivery.id }))
      .finally(() => {
        this.inFlight.delete(attempt);
        this.release(delivery.endpoint_id);
        this.onSlotFreed(delivery.endpoint_id);
      });
    this.inFlight.add(attempt);
    return attempt;
  }

  /** Free slots for one endpoint, as both caps allow. */
  roomFor(endpointId: string): number {
    return Math.max(0, Math.min(this.concurrency - this.held, this.endpointConcurrency - this.countOf(endpointId)));
  }

  /**
   * Claims due deliveries for the free slots (of one endpoint, when given; else of any endpoint not
   * already at its cap) and starts them. A claim for one endpoint holds its slots while it runs; a
   * general claim holds none (it would shut every queueing out of the pool meanwhile), so a
   * delivery it brings back for an endpoint or a pool that filled up in the meantime is handed
   * back, due at once, and its endpoint is returned in `handedBack`. Returns how many rows were
   * claimed, how many of them were started, and how many could have been claimed.
   */
  async claim(endpointId?: string): Promise<{ claimed: number; started: number; room: number; handedBack: string[] }> {
    const room = endpointId === undefined ? this.concurrency - this.held : this.roomFor(endpointId);
    if (room <= 0) return { claimed: 0, started: 0, room: 0, handedBack: [] };
    if (endpointId !== undefined) {
      this.held += room;
      this.add(endpointId, room);
    }
    // Endpoints with slots held get only what is left of their share.
    const busy = new Map([...this.perEndpoint].map(([id, count]) => [id, this.endpointConcurrency - count]));
    if (endpointId !== undefined) busy.set(endpointId, room);
    let claimed: ClaimedDelivery[];
    try {
      claimed = await claimDueDeliveries(room, this.leaseMs, { perEndpoint: this.endpointConcurrency, busy, endpointId });
    } catch (error) {
      if (endpointId !== undefined) {
        this.held -= room;
        this.add(endpointId, -room);
      }
      throw error;
    }
    const toStart: ClaimedDelivery[] = [];
    const handBack: ClaimedDelivery[] = [];
    if (endpointId !== undefined) {
      toStart.push(...claimed);
      // The slots held for this claim and not filled.
      this.held -= room - claimed.length;
      this.add(endpointId, -(room - claimed.length));
    } else {
      for (const delivery of claimed) {
        if (this.reserve(delivery.endpoint_id)) toStart.push(delivery);
        else handBack.push(delivery);
      }
    }
    for (const delivery of toStart) void this.start(delivery);
    if (handBack.length > 0) await releaseDeliveries(handBack.map((delivery) => delivery.id));
    return { claimed: claimed.length, started: toStart.length, room, handedBack: [...new Set(handBack.map((delivery) => delivery.endpoint_id))] };
  }

  /** Resolves when any attempt in flight ends (at once when none is). */
  async next(): Promise<void> {
    if (this.inFlight.size > 0) await Promise.race(this.inFlight);
  }

  get idle(): boolean {
    return this.held === 0;
  }

  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}

/**
 * Queues one event for its subscribed endpoints, leased to the caller for those it has room for,
 * and starts those attempts. Returns them, and the endpoints of the deliveries left due for a claim.
 */
async function acceptEvent(pool: DeliveryPool, event: EventEnvelope): Promise<{ started: Promise<void>[]; left: string[] }> {
  const reserved: string[] = [];
  let queued: Awaited<ReturnType<typeof queueEvent>>;
  try {
    queued = await queueEvent(event, {
      leaseMs: pool.leaseMs,
      lease: (endpointId) => {
        const ok = pool.reserve(endpointId);
        if (ok) reserved.push(endpointId);
        return ok;
      },
    });
  } catch (error) {
    for (const endpointId of reserved) pool.release(endpointId);
    throw error;
  }
  const started: Promise<void>[] = [];
  for (const delivery of queued) {
    if (!delivery.leased) continue;
    reserved.splice(reserved.indexOf(delivery.endpoint_id), 1);
    started.push(pool.start(delivery));
  }
  // Endpoints that already had this event queued (a repeated publish): nothing to send.
  for (const endpointId of reserved) pool.release(endpointId);
  return { started, left: queued.filter((delivery) => !delivery.leased).map((delivery) => delivery.endpoint_id) };
}

export interface DispatcherOptions extends PoolOptions {
  /** How often due retries are looked for (WEBHOOK_POLL_MS, default 1000). */
  pollMs?: number;
}

/**
 * The in-process dispatcher: the bus's events, sent at once, and the deliveries table's due rows.
 * Deliveries left due because their endpoint was at its cap are remembered per endpoint: when one
 * of its attempts ends, that endpoint's backlog is claimed by its own index, so a slow endpoint's
 * backlog is never scanned past on behalf of the others. Retries, resends and pings are found by
 * the general claim, on a timer and whenever the pool had been full.
 */
export class WebhookDispatcher {
  private readonly pool: DeliveryPool;
  private readonly queueing = new Set<Promise<unknown>>();
  /**
   * Endpoints with deliveries left due in the table for want of a slot, each with a count that
   * rises whenever more are left, so a backlog claim that raced a new one does not forget it.
   */
  private readonly backlogged = new Map<string, number>();
  /** Deliveries were left due because the whole pool was full: claim generally when a slot frees. */
  private poolBacklog = false;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private pumping = false;
  private again = false;
  private stopped = false;

  constructor(bus: InProcessEventBus, options: DispatcherOptions = {}) {
    this.pool = new DeliveryPool(options, (endpointId) => this.slotFreed(endpointId));
    // The bus never waits for a delivery: the listener only starts the queueing.
    this.unsubscribe = bus.subscribe((event) => {
      if (this.stopped) return;
      const queued = acceptEvent(this.pool, event)
        .then(({ left }) => {
          for (const endpointId of left) this.leftDue(endpointId);
        })
        .catch((error: unknown) => logger.warn('webhook queueing failed', { error, event: event.id }));
      this.queueing.add(queued);
      void queued.finally(() => this.queueing.delete(queued));
    });
    const pollMs = options.pollMs ?? Number(process.env.WEBHOOK_POLL_MS ?? 1000);
    this.timer = setInterval(() => void this.pump(), pollMs);
    this.timer.unref();
  }

  /** A delivery of the endpoint is due in the table: claim it now if there is room, else when a slot frees. */
  private leftDue(endpointId: string): void {
    if (this.stopped) return;
    if (this.pool.size >= this.pool.concurrency) {
      this.poolBacklog = true;
      return;
    }
    this.backlogged.set(endpointId, (this.backlogged.get(endpointId) ?? 0) + 1);
    if (this.pool.roomFor(endpointId) > 0) void this.claimBacklog(endpointId);
  }

  private slotFreed(endpointId: string): void {
    if (this.stopped) return;
    if (this.poolBacklog) void this.pump();
    else if (this.backlogged.has(endpointId)) void this.claimBacklog(endpointId);
  }

  private async claimBacklog(endpointId: string): Promise<void> {
    const mark = this.backlogged.get(endpointId);
    try {
      const { claimed, room } = await this.pool.claim(endpointId);
      // Drained, unless more was left due while the claim ran: then look again.
      if (room > 0 && claimed < room) {
        if (this.backlogged.get(endpointId) === mark) this.backlogged.delete(endpointId);
        else if (!this.stopped) void this.claimBacklog(endpointId);
      }
    } catch (error) {
      logger.warn('webhook dispatch failed', { error });
    }
  }

  /** Claims and starts due deliveries of any endpoint while there is room. */
  async pump(): Promise<void> {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.again = false;
        const { claimed, room, handedBack } = await this.pool.claim();
        for (const endpointId of handedBack) this.leftDue(endpointId);
        if (room === 0) break;
        if (claimed === room) this.again = true;
        else this.poolBacklog = false;
      } while (this.again && !this.stopped);
    } catch (error) {
      logger.warn('webhook dispatch failed', { error });
    } finally {
      this.pumping = false;
    }
  }

  /** Stops taking work and waits for what is running. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.unsubscribe?.();
    await Promise.allSettled([...this.queueing]);
    await this.pool.drain();
  }
}

/**
 * The dispatcher function's work for one event from the bus: queue it for the subscribed
 * endpoints and send each at once, concurrently (what finds no room is left due for the retry
 * function). Returns how many deliveries were attempted.
 */
export async function dispatchEvent(event: EventEnvelope, options: PoolOptions = {}): Promise<number> {
  const pool = new DeliveryPool(options);
  const { started } = await acceptEvent(pool, event);
  await Promise.all(started);
  return started.length;
}

/**
 * The retry function's work: claims due deliveries (retries, and anything a dispatcher left or
 * lost) and runs them, keeping the pool full, until nothing is due or `stopClaimingAt` (epoch ms)
 * passes; then waits for the attempts in flight. Returns how many were attempted.
 */
export async function runDueDeliveries(stopClaimingAt: number, options: PoolOptions = {}): Promise<number> {
  const pool = new DeliveryPool(options);
  let attempted = 0;
  while (Date.now() < stopClaimingAt) {
    attempted += (await pool.claim()).started;
    if (pool.idle) break;
    // When a slot frees, what became due meanwhile (a 5 s retry) may be claimed.
    await pool.next();
  }
  await pool.drain();
  return attempted;
}
