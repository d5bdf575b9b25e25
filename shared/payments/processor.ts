/**
 * The payment processor port: what the API needs from a processor to save a customer's payment
 * method without ever touching card or bank numbers (the processor's client library collects them
 * and the API only sees tokens, brands and last fours).
 *
 * Two adapters: the sandbox one (deterministic, no network, state in PostgreSQL; local runs, tests
 * and the sandbox stage) and Stripe (the official `stripe` package). `paymentProcessor()`
 * (select-processor.ts) is the one place that picks.
 */

/** What E12 accepts; `us_bank_account` is the processor's word for an ACH debit account. */
export type SetupIntentType = 'card' | 'us_bank_account';

export type SetupIntentStatus = 'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'canceled' | 'succeeded';

/** Who the method will belong to; the processor keeps the ids as metadata and returns them. */
export interface CustomerRef {
  entityId: string;
  accountId: string;
  /** The processor's customer, once one exists for this account. */
  processorCustomerId?: string;
  name?: string;
}

export interface SetupIntent {
  setup_intent_id: string;
  client_secret: string;
  status: SetupIntentStatus;
  publishable_key: string;
  type: SetupIntentType;
  processor_customer_id: string;
  /** Set once the client confirmed the intent with a method. */
  processor_payment_method_id: string | null;
  /** The metadata written at creation: whose intent this is. */
  entity_id: string | null;
  account_id: string | null;
}

/** A saved method as the processor describes it: never a full number. */
export interface ProcessorPaymentMethod {
  processor_payment_method_id: string;
  type: 'card' | 'ach';
  card_brand: string | null;
  last_four: string | null;
  exp_month: number | null;
  exp_year: number | null;
  funding_type: string | null;
  bank_name: string | null;
  routing_last_four: string | null;
  account_type: string | null;
  verification_status: string | null;
}

export interface PaymentProcessor {
  readonly name: 'sandbox' | 'stripe';
  createSetupIntent(type: SetupIntentType, customer: CustomerRef, options?: { idempotencyKey?: string }): Promise<SetupIntent>;
  /** Null when the processor does not know the id. */
  retrieveSetupIntent(setupIntentId: string): Promise<SetupIntent | null>;
  retrievePaymentMethod(processorPaymentMethodId: string): Promise<ProcessorPaymentMethod>;
  /** Stops the method from being charged again (soft removal on our side). */
  detachPaymentMethod(processorPaymentMethodId: string): Promise<void>;
}

export type ProcessorName = PaymentProcessor['name'];

/** Processor failures the API reports as a 500 (the request id leads support to the log line). */
export class PaymentProcessorError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly processorCode?: string,
  ) {
    super(message);
    this.name = 'PaymentProcessorError';
  }
}
