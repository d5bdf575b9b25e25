/**
 * The local gateway's limits (npm start), which the OpenAPI document states: the gateway enforces
 * these, the document describes them. The deployed stages' limits live in their stage config
 * (infra/config/stages.ts: usage tiers, the stage throttle, the WAF's per-address rule).
 */
export interface TokenBucket {
  ratePerSecond: number;
  burst: number;
}

/** Per API key (per client address on the routes without authentication). */
export const LOCAL_RATE_LIMIT: TokenBucket = { ratePerSecond: 50, burst: 100 };

/** Failed authentications per client address. */
export const LOCAL_AUTH_FAILURE_LIMIT: TokenBucket = { ratePerSecond: 1, burst: 20 };
