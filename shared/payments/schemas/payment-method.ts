/** Account payment methods (E12, E19): tokens and display details only, never numbers. */
import * as z from 'zod/mini';
import { id, timestamp } from '../../schemas/common';
import { listQuery } from '../../schemas/list';
import { param, pathParams } from '../../schemas/parameters';
import { livemode } from '../../schemas/livemode';

export const AccountPaymentMethod = z
  .object({
    id: id(),
    object: z.literal('account_payment_method'),
    livemode: livemode(),
    account_id: id(),
    entity_id: id(),
    processor_payment_method_id: z.string().check(z.describe("The payment processor's id of the method (e.g. pm_…).")),
    type: z.enum(['card', 'ach']),
    card_brand: z.nullable(z.string()).check(z.describe('Cards: visa, mastercard, amex, discover ...')),
    last_four: z.nullable(z.string()).check(z.describe('Last four digits of the card or bank account number.')),
    bank_name: z.nullable(z.string()),
    account_type: z.nullable(z.string()).check(z.describe('ACH: checking or savings.')),
    routing_last_four: z.nullable(z.string()),
    funding_type: z.nullable(z.string()).check(z.describe('Cards: credit, debit, prepaid or unknown.')),
    verification_status: z.nullable(z.string()).check(z.describe('ACH: verified, pending or blocked; null for cards.')),
    exp_month: z.nullable(z.number().check(z.int())),
    exp_year: z.nullable(z.number().check(z.int())),
    is_default: z.boolean().check(z.describe("At most one active default per account; the account's first method becomes it.")),
    is_active: z.boolean().check(z.describe('False once removed (DELETE): kept for history, detached at the processor.')),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'AccountPaymentMethod' });
export type AccountPaymentMethod = z.infer<typeof AccountPaymentMethod>;

export const SetupIntentResponse = z
  .object({
    object: z.literal('setup_intent'),
    livemode: livemode(),
    client_secret: z.string().check(z.describe("Hand to the processor's client library to collect and confirm the method.")),
    setup_intent_id: z.string(),
    status: z.string(),
    publishable_key: z.string().check(z.describe("The processor's publishable key for the client library (test or live, as the API key).")),
  })
  .register(z.globalRegistry, { id: 'SetupIntent' });

export const SetupIntentCreate = z.strictObject({
  type: z.enum(['card', 'us_bank_account']).check(z.describe('card, or us_bank_account for an ACH debit account.')),
});

export const PaymentMethodAttach = z.strictObject({
  setup_intent_id: z
    .string()
    .check(z.minLength(1), z.maxLength(255), z.describe('The setup intent from POST /v1/accounts/{id}/payment-methods, confirmed by the client.')),
  is_default: z
    .optional(z.boolean())
    .check(z.describe("Make this the account's default (the previous default is demoted). The first method is the default regardless.")),
});
export type PaymentMethodAttach = z.infer<typeof PaymentMethodAttach>;

export const PaymentMethodUpdate = z.strictObject({
  is_default: z.literal(true).check(z.describe("Only true: make this the account's default; the previous default is demoted in the same transaction.")),
});

export const paymentMethodParams = pathParams({ id: param.id('The account id.'), payment_method_id: param.id('The account payment method id.') });

export const PaymentMethodListQuery = listQuery(
  {
    account_id: param.id('Only the methods of this account.'),
    type: param.oneOf(['card', 'ach']),
    is_default: param.flag('Only default (true) or non-default (false) methods.'),
    is_active: param.flag('Only active (true) or removed (false) methods; omit for both.'),
  },
  { maxLimit: 500 },
);
