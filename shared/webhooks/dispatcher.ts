/**
 * The in-process dispatcher (`npm start`, tests): queues every event the in-process bus publishes
 * for the endpoints that subscribe to it, and runs due deliveries, first attempts and retries
 * alike, from the deliveries table. Attempts run concurrently up to a cap, each on its own, so a
 * slow endpoint never holds back another's deliveries, and the bus never waits for a delivery.
 */
import type { InProcessEventBus } from '../events/publisher';
import { log } from '../log';
import { attemptDelivery, claimDueDeliveries, deliveryConfig, queueEvent, type DeliveryConfig } from './delivery';
import { urlPolicy } from './url-policy';

export interface DispatcherOptions {
  /** How often due retries are looked for (WEBHOOK_POLL_MS, default 1000). */
  pollMs?: number;
  /** Attempts in flight at most (default 50). */
  concurrency?: number;
  config?: DeliveryConfig;
}

export class WebhookDispatcher {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly queueing = new Set<Promise<unknown>>();
  private readonly config: DeliveryConfig;
  private readonly concurrency: number;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private pumping = false;
  private again = false;
  private stopped = false;

  constructor(
    bus: InProcessEventBus,
    private readonly options: DispatcherOptions = {},
  ) {
    this.config = options.config ?? deliveryConfig();
    this.concurrency = options.concurrency ?? 50;
    this.unsubscribe = bus.subscribe((event) => {
      const queued = queueEvent(event)
        .then((count) => (count > 0 ? this.pump() : undefined))
        .catch((error: unknown) => log.warn('webhook queueing failed', { error, event: event.id }));
      this.queueing.add(queued);
      void queued.finally(() => this.queueing.delete(queued));
    });
    const pollMs = options.pollMs ?? Number(process.env.WEBHOOK_POLL_MS ?? 1000);
    this.timer = setInterval(() => void this.pump(), pollMs);
    this.timer.unref();
  }

  /** Claims and starts due deliveries while there is room. */
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
        const room = this.concurrency - this.inFlight.size;
        if (room <= 0) break;
        const claimed = await claimDueDeliveries(room, this.config.timeoutMs + 30_000);
        for (const delivery of claimed) {
          const attempt = attemptDelivery(delivery, this.config, urlPolicy())
            .catch((error: unknown) => log.warn('webhook attempt failed to run', { error, delivery: delivery.id }))
            .finally(() => {
              this.inFlight.delete(attempt);
              void this.pump();
            });
          this.inFlight.add(attempt);
        }
        if (claimed.length === room) this.again = true;
      } while (this.again && !this.stopped);
    } catch (error) {
      log.warn('webhook dispatch failed', { error });
    } finally {
      this.pumping = false;
    }
  }

  /** Stops taking work and waits for what is running. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.unsubscribe?.();
    await Promise.allSettled([...this.queueing, ...this.inFlight]);
  }
}
