import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LruCache } from '../../local/lru-cache';
import { TokenBucketLimiter } from '../../local/rate-limiter';

const T0 = 1_700_000_000_000;

describe('TokenBucketLimiter', () => {
  it('allows the whole burst immediately', () => {
    const limiter = new TokenBucketLimiter({ ratePerSecond: 2, burst: 5 });
    const decisions = Array.from({ length: 5 }, () => limiter.take('k', T0));
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0]);
    expect(decisions.every((d) => d.limit === 5 && d.retryAfterSeconds === 0)).toBe(true);
  });

  it('refuses the request after the burst with retryAfterSeconds of at least 1', () => {
    const limiter = new TokenBucketLimiter({ ratePerSecond: 100, burst: 3 });
    for (let i = 0; i < 3; i++) limiter.take('k', T0);
    const refused = limiter.take('k', T0);
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(0);
    expect(refused.limit).toBe(3);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it('tells a slow bucket to wait as long as one token takes', () => {
    const limiter = new TokenBucketLimiter({ ratePerSecond: 0.25, burst: 1 });
    expect(limiter.take('k', T0).allowed).toBe(true);
    const refused = limiter.take('k', T0);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(4);
    expect(refused.resetSeconds).toBe(4);
  });

  it('refills at the rate, using the now argument', () => {
    const limiter = new TokenBucketLimiter({ ratePerSecond: 2, burst: 2 });
    limiter.take('k', T0);
    limiter.take('k', T0);
    expect(limiter.take('k', T0).allowed).toBe(false);
    expect(limiter.take('k', T0 + 250).allowed).toBe(false); // half a token
    expect(limiter.take('k', T0 + 500).allowed).toBe(true); // one token
    expect(limiter.take('k', T0 + 500).allowed).toBe(false);
    const later = limiter.take('k', T0 + 10_000);
    expect(later.allowed).toBe(true);
    expect(later.remaining).toBe(1); // refilled to burst (2), never beyond, then took one
  });

  it('never refills beyond the burst', () => {
    const limiter = new TokenBucketLimiter({ ratePerSecond: 10, burst: 3 });
    limiter.take('k', T0);
    let allowed = 0;
    for (let i = 0; i < 10; i++) if (limiter.take('k', T0 + 3_600_000).allowed) allowed++;
    expect(allowed).toBe(3);
  });

  it('reports resetSeconds as the time to the next token, 0 when full', () => {
    const limiter = new TokenBucketLimiter({ ratePerSecond: 0.5, burst: 10 });
    for (let i = 0; i < 4; i++) limiter.take('k', T0);
    expect(limiter.take('k', T0)).toMatchObject({ allowed: true, remaining: 5, resetSeconds: 2, limit: 10 });
    expect(limiter.take('k', T0 + 1_000)).toMatchObject({ remaining: 4, resetSeconds: 1 });
    expect(limiter.take('fresh', T0)).toMatchObject({ remaining: 9, resetSeconds: 2 });
    expect(new TokenBucketLimiter({ ratePerSecond: 1, burst: 1 }).take('k', T0 + 60_000)).toMatchObject({ remaining: 0, resetSeconds: 1 });
  });

  it('refuses with Retry-After equal to RateLimit-Reset, and a request after that long is allowed', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 100, noNaN: true }), fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 60 }), (rate, burst, extra) => {
        const limiter = new TokenBucketLimiter({ ratePerSecond: rate, burst });
        for (let i = 0; i < burst + extra; i++) limiter.take('k', T0);
        const refused = limiter.take('k', T0);
        expect(refused.allowed).toBe(false);
        expect(refused.retryAfterSeconds).toBe(refused.resetSeconds);
        expect(limiter.take('k', T0 + refused.retryAfterSeconds * 1000).allowed).toBe(true);
      }),
    );
  });

  it('keeps a separate bucket per key', () => {
    const limiter = new TokenBucketLimiter({ ratePerSecond: 1, burst: 1 });
    expect(limiter.take('a', T0).allowed).toBe(true);
    expect(limiter.take('a', T0).allowed).toBe(false);
    expect(limiter.take('b', T0).allowed).toBe(true);
  });

  it('uses the clock when now is not given', () => {
    const limiter = new TokenBucketLimiter({ ratePerSecond: 1, burst: 1 });
    expect(limiter.take('k').allowed).toBe(true);
    expect(limiter.take('k').allowed).toBe(false);
  });

  it('gives back a token on refund, never beyond the burst', () => {
    const limiter = new TokenBucketLimiter({ ratePerSecond: 0.001, burst: 2 });
    limiter.take('k', T0);
    limiter.take('k', T0);
    expect(limiter.take('k', T0).allowed).toBe(false);
    limiter.refund('k');
    expect(limiter.take('k', T0)).toMatchObject({ allowed: true, remaining: 0 });
    limiter.refund('k');
    limiter.refund('k');
    limiter.refund('k');
    expect(limiter.take('k', T0).remaining).toBe(1); // refilled to 2, not 4, then took one
    limiter.refund('unknown');
    expect(limiter.size).toBe(1);
  });

  it('holds at most maxKeys buckets under 100,000 distinct keys, forgetting the least recently used', () => {
    const limiter = new TokenBucketLimiter({ ratePerSecond: 0.001, burst: 1, maxKeys: 1_000 });
    limiter.take('active', T0);
    for (let i = 0; i < 100_000; i++) {
      limiter.take(`key-${i}`, T0);
      if (i % 500 === 0) {
        expect(limiter.take('active', T0).allowed).toBe(false); // used, so kept
        expect(limiter.size).toBeLessThanOrEqual(1_000);
      }
    }
    expect(limiter.size).toBe(1_000);
    expect(limiter.take('key-99999', T0).allowed).toBe(false); // recent: still spent
    // Forgotten long ago: a fresh bucket (0.001 tokens a second could not have refilled it).
    expect(limiter.take('key-0', T0).allowed).toBe(true);
  });

  it('keeps 10,000 buckets by default', () => {
    const limiter = new TokenBucketLimiter({ ratePerSecond: 1, burst: 1 });
    for (let i = 0; i < 20_000; i++) limiter.take(`key-${i}`, T0);
    expect(limiter.size).toBe(10_000);
  });

  it('never allows more than burst + rate × elapsed over any increasing sequence of timestamps (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        fc.array(fc.integer({ min: 0, max: 2_000 }), { minLength: 1, maxLength: 300 }),
        (burst, ratePerSecond, gaps) => {
          const limiter = new TokenBucketLimiter({ ratePerSecond, burst });
          let now = T0;
          let allowed = 0;
          for (const gap of gaps) {
            now += gap;
            const decision = limiter.take('k', now);
            if (decision.allowed) allowed++;
            else expect(decision.retryAfterSeconds).toBeGreaterThanOrEqual(1);
            expect(decision.remaining).toBeGreaterThanOrEqual(0);
            expect(decision.remaining).toBeLessThanOrEqual(burst);
            expect(decision.limit).toBe(burst);
          }
          const elapsedSeconds = (now - T0 - gaps[0]) / 1000;
          expect(allowed).toBeLessThanOrEqual(Math.floor(burst + ratePerSecond * elapsedSeconds + 1e-9));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never allows more than burst + rate × elapsed even when the clock steps backwards (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.integer({ min: 0, max: 60_000 }), { minLength: 1, maxLength: 200 }),
        (burst, ratePerSecond, offsets) => {
          const limiter = new TokenBucketLimiter({ ratePerSecond, burst });
          let allowed = 0;
          for (const offset of offsets) if (limiter.take('k', T0 + offset).allowed) allowed++;
          const elapsedSeconds = (Math.max(...offsets) - Math.min(...offsets)) / 1000;
          expect(allowed).toBeLessThanOrEqual(Math.floor(burst + ratePerSecond * elapsedSeconds + 1e-9));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('LruCache', () => {
  it('forgets the least recently used entry, where a read counts as a use', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // b is now the least recent
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('replaces a value in place without growing', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('a', 2);
    cache.set('b', 3);
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBe(2);
  });

  it('stays within its bound under 100,000 distinct keys and keeps the one in use', () => {
    const cache = new LruCache<string, number>(10_000);
    cache.set('hot', -1);
    for (let i = 0; i < 100_000; i++) {
      cache.set(`key-${i}`, i);
      if (i % 1_000 === 0) expect(cache.get('hot')).toBe(-1);
    }
    expect(cache.size).toBe(10_000);
    // 'hot' holds one of the 10,000 places, the 9,999 newest keys the rest.
    expect(cache.get('key-90000')).toBeUndefined();
    expect(cache.get('key-90001')).toBe(90_001);
    expect(cache.get('hot')).toBe(-1);
  });

  it('answers every sequence of reads and writes as a list ordered by last use would (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.record({ write: fc.boolean(), key: fc.integer({ min: 0, max: 7 }), value: fc.integer() }), { maxLength: 200 }),
        (maxEntries, operations) => {
          const cache = new LruCache<number, number>(maxEntries);
          let model: { key: number; value: number }[] = []; // least recently used first
          for (const { write, key, value } of operations) {
            const found = model.find((entry) => entry.key === key);
            if (write) {
              model = [...model.filter((entry) => entry.key !== key), { key, value }].slice(-maxEntries);
              cache.set(key, value);
            } else {
              if (found) model = [...model.filter((entry) => entry.key !== key), found];
              expect(cache.get(key)).toBe(found?.value);
            }
            expect(cache.size).toBe(model.length);
          }
          for (const { key, value } of model) expect(cache.get(key)).toBe(value);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a bound below one entry', () => {
    expect(() => new LruCache(0)).toThrow('at least one entry');
  });
});
