/**
 * Token bucket per caller, the algorithm API Gateway's throttling uses (rate + burst), so local
 * 429s behave like the deployed ones. Buckets idle for a minute are dropped.
 */
export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
  retryAfterSeconds: number;
}

export class TokenBucketLimiter {
  private readonly buckets = new Map<string, { tokens: number; updated: number }>();

  constructor(private readonly options: { ratePerSecond: number; burst: number }) {}

  take(key: string, now = Date.now()): LimitDecision {
    const { ratePerSecond, burst } = this.options;
    const bucket = this.buckets.get(key) ?? { tokens: burst, updated: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.updated) / 1000) * ratePerSecond);
    bucket.updated = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 10_000) this.evictIdle(now);
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    const missing = burst - bucket.tokens;
    return {
      allowed,
      limit: burst,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: Math.ceil(missing / ratePerSecond),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerSecond)),
    };
  }

  private evictIdle(now: number): void {
    for (const [key, bucket] of this.buckets) if (now - bucket.updated > 60_000) this.buckets.delete(key);
  }
}
