/**
 * How large a function's code (its index.mjs, minified) may be: test/infra/bundle.test.ts holds
 * every bundle to it, and bench/bundle-size.ts reports against it.
 *
 * Every function ships under 1 MiB (the cold start, measured by bench/bundle-size.ts, is what
 * matters more). What the routes share weighs about 600–800 KB (the AWS SDK's clients with their
 * credential chain, zod, pg, Powertools idempotency in the writes, middy and the handler stack,
 * decimal.js-light where money is involved), so a route that drags in something big (a
 * non-tree-shaken zod namespace alone adds ~360 KB, the route table several hundred) fails.
 */
export const BUNDLE_LIMIT = 1024 * 1024;
/** The functions that can call the card processor carry the `stripe` package on top (about 250 KB, evaluated on the first card call). */
const STRIPE_ALLOWANCE = 256 * 1024;
/**
 * POST /v1/batch runs every other route, so its function carries the whole route table (about
 * 1.8 MB with stripe): its own limit (docs/decisions.md, "Batch"). It must stay the only one.
 */
const BATCH_LIMIT = 2 * 1024 * 1024;
const BATCH_BUNDLE = 'batch/run-batch';

/** The limit of one function's code, by its bundle name and its code (a card function's names Stripe's API host). */
export function bundleSizeLimit(name: string, code: string): number {
  if (name === BATCH_BUNDLE) return BATCH_LIMIT;
  return BUNDLE_LIMIT + (code.includes('api.stripe.com') ? STRIPE_ALLOWANCE : 0);
}
