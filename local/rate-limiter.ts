/**
 * Token bucket per caller, the algorithm API Gateway's throttling uses (rate + burst), so local
 * 429s behave like the deployed ones. The buckets live in an LRU of bounded size: a flood of
 * distinct callers costs fixed memory and O(1) work per request. Forgetting the least recently
 * used bucket gives that caller a full burst again, which is no more than a new caller gets.
 */
import { LruCache } from './lru-cache';

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
  retryAfterSeconds: number;
}

interface TokenBucketOptions {
  ratePerSecond: number;
  burst: number;
  /** Buckets kept at most (least recently used dropped first). */
  maxKeys?: number;
}

interface Bucket {
  tokens: number;
  updated: number;
}

export const DEFAULT_MAX_KEYS = 10_000;

export class TokenBucketLimiter {
  private readonly buckets: LruCache<string, Bucket>;

  constructor(private readonly options: TokenBucketOptions) {
    this.buckets = new LruCache(options.maxKeys ?? DEFAULT_MAX_KEYS);
  }

  /** Buckets held now (never more than maxKeys). */
  get size(): number {
    return this.buckets.size;
  }

  take(key: string, now = Date.now()): LimitDecision {
    const { ratePerSecond, burst } = this.options;
    const bucket = this.buckets.get(key) ?? { tokens: burst, updated: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.updated) / 1000) * ratePerSecond);
    bucket.updated = now;
    this.buckets.set(key, bucket);
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    // RateLimit-Reset and Retry-After say one thing: the seconds until the next whole token, when
    // Remaining grows by one (0 once the bucket is full). A refused request waits exactly that long.
    const full = bucket.tokens >= burst;
    const nextToken = full ? 0 : Math.max(1, Math.ceil((1 - (bucket.tokens % 1)) / ratePerSecond));
    return {
      allowed,
      limit: burst,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: nextToken,
      retryAfterSeconds: allowed ? 0 : nextToken,
    };
  }

  /** Gives back the token an allowed take() spent, for a request that turned out not to count. */
  refund(key: string): void {
    const bucket = this.buckets.get(key);
    if (bucket) bucket.tokens = Math.min(this.options.burst, bucket.tokens + 1);
  }
}
