/** Picks the payment processor adapter for a caller; apart from the port so that the adapters do not import their own factory. */
import type { KeyMode } from '../auth/api-key-format';
import type { Db } from '../db/database';
import { PaymentProcessorError, type PaymentProcessor } from './processor';
import { sandboxProcessor } from './sandbox-processor';
import { stripeProcessor } from './stripe-processor';

/**
 * The processor for a caller. PAYMENT_PROCESSOR=stripe selects Stripe, with the secret key from
 * STRIPE_SECRET_KEY or from the Secrets Manager secret STRIPE_SECRET_ARN (JSON {live, test, publishable_live,
 * publishable_test}); test keys use Stripe's test mode, live keys its live mode. Anything else (or
 * nothing) selects the sandbox adapter, which keeps its state in the caller's transaction `db`.
 */
export function paymentProcessor(mode: KeyMode, db: Db, env: Record<string, string | undefined> = process.env): PaymentProcessor {
  if (env.PAYMENT_PROCESSOR === 'stripe') return stripeProcessor(mode, env);
  // Fail closed: a deployed stage without a real processor must not save make-believe methods for
  // live keys (the sandbox stage accepts test keys only, so it never gets here).
  if (mode === 'live' && env.NODE_ENV === 'production') throw new PaymentProcessorError('no payment processor is configured for live keys');
  return sandboxProcessor(db);
}
