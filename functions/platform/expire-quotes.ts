/**
 * The quote expiry job, run by an EventBridge schedule (hourly): records order.expired once for each
 * quote whose expires_at has passed (shared/orders/expire-quotes.ts). The quote is already expired
 * by the read-time rule; the job only announces it. Scheduling and as_of: ./expiry-job.ts.
 */
import { runQuoteExpiry } from '../../shared/orders/expire-quotes';
import { expiryJob } from './expiry-job';

export const handler = expiryJob('quote expiry', runQuoteExpiry);
