/** Account payment methods (E12, E19): tokens and display details only, never numbers. */
import * as z from 'zod';
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
    processor_payment_method_id: z.string().describe("The payment processor's id of the method (e.g. pm_…)."),
    type: z.enum(['card', 'ach']),
    card_brand: z.string().nullable().describe('Cards: visa, mastercard, amex, discover ...'),
    last_four: z.string().nullable().describe('Last four digits of the card or bank account number.'),
    bank_name: z.string().nullable(),
    account_type: z.string().nullable().describe('ACH: checking or savings.'),
    routing_last_four: z.string().nullable(),
    funding_type: z.string().nullable().describe('Cards: credit, debit, prepaid or unknown.'),
    verification_status: z.string().nullable().describe('ACH: verified, pending or blocked; null for cards.'),
    exp_month: z.number().int().nullable(),
    exp_year: z.number().int().nullable(),
    is_default: z.boolean().describe("At most one active default per account; the account's first method becomes it."),
    is_active: z.boolean().describe('False once removed (DELETE): kept for history, detached at the processor.'),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'AccountPaymentMethod' });
export type AccountPaymentMethod = z.infer<typeof AccountPaymentMethod>;

export const SetupIntentResponse = z
  .object({
    object: z.literal('setup_intent'),
    livemode: livemode(),
    client_secret: z.string().describe("Hand to the processor's client library to collect and confirm the method."),
    setup_intent_id: z.string(),
    status: z.string(),
    publishable_key: z.string().describe("The processor's publishable key for the client library (test or live, as the API key)."),
  })
  .meta({ id: 'SetupIntent' });

export const SetupIntentCreate = z.strictObject({
  type: z.enum(['card', 'us_bank_account']).describe('card, or us_bank_account for an ACH debit account.'),
});

export const PaymentMethodAttach = z.strictObject({
  setup_intent_id: z.string().min(1).max(255).describe('The setup intent from POST /v1/accounts/{id}/payment-methods, confirmed by the client.'),
  is_default: z.boolean().optional().describe("Make this the account's default (the previous default is demoted). The first method is the default regardless."),
});
export type PaymentMethodAttach = z.infer<typeof PaymentMethodAttach>;

export const PaymentMethodUpdate = z.strictObject({
  is_default: z.literal(true).describe("Only true: make this the account's default; the previous default is demoted in the same transaction."),
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
