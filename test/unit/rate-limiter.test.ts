import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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

  it('reports resetSeconds as the time to refill to the burst', () => {
    const limiter = new TokenBucketLimiter({ ratePerSecond: 1, burst: 10 });
    for (let i = 0; i < 4; i++) limiter.take('k', T0);
    expect(limiter.take('k', T0)).toMatchObject({ allowed: true, remaining: 5, resetSeconds: 5, limit: 10 });
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

  it('drops buckets idle for over a minute once more than 10,000 exist, and keeps the active one', () => {
    const limiter = new TokenBucketLimiter({ ratePerSecond: 0.001, burst: 1 });
    for (let i = 0; i < 10_001; i++) limiter.take(`idle-${i}`, T0);
    expect(limiter.take('idle-0', T0).allowed).toBe(false);
    limiter.take('active', T0 + 120_000); // the 10,002nd bucket: idle ones are dropped
    expect(limiter.take('active', T0 + 120_000).allowed).toBe(false);
    // 120 s at 0.001/s refills 0.12 tokens: only a dropped (fresh) bucket allows this.
    expect(limiter.take('idle-0', T0 + 120_000).allowed).toBe(true);
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
