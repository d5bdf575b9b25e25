/**
 * The vendor credit expiry job, run by an EventBridge schedule (hourly): forfeits the remaining
 * balance of credits past expires_at (shared/payables/expire-credits.ts). Scheduling and as_of:
 * ./expiry-job.ts.
 */
import { runCreditExpiry } from '../../shared/payables/expire-credits';
import { expiryJob } from './expiry-job';

export const handler = expiryJob('vendor credit expiry', runCreditExpiry);
