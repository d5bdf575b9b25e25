/** Payment terms: the net days a vendor bill's due_date is computed from (bill_date + net_days). */
import * as z from 'zod/mini';
import { id, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const PaymentTerm = z
  .object({
    id: id(),
    object: z.literal('payment_term'),
    livemode: livemode(),
    entity_id: id(),
    name: z.string().check(z.describe('What the terms are called on documents, such as Net 30.')),
    net_days: z.number().check(z.int(), z.describe('Days from the bill date to the due date (0: due on receipt).')),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, {
    id: 'PaymentTerm',
    description: 'Net-days payment terms (such as Net 30): a vendor bill naming them without a due_date is due on bill_date + net_days.',
  });
export type PaymentTerm = z.infer<typeof PaymentTerm>;

const name = () => z.string().check(z.trim(), z.minLength(1), z.maxLength(100));
const netDays = () => z.number().check(z.int(), z.gte(0), z.lte(3650));

export const PaymentTermCreate = z.strictObject({
  name: name().check(z.describe('1 to 100 characters, such as Net 30.')),
  net_days: netDays().check(z.describe('0 to 3650: the due date is the bill date plus this many days.')),
});
export type PaymentTermCreate = z.infer<typeof PaymentTermCreate>;

export const PaymentTermUpdate = z.strictObject({
  name: z.optional(name()),
  net_days: z.optional(netDays()).check(z.describe('Applies to bills whose due date is computed from now on; bills keep the due_date they have.')),
});
export type PaymentTermUpdate = z.infer<typeof PaymentTermUpdate>;
