/** The body of POST /v1/orders/{id}/send. */
import * as z from 'zod/mini';
import { optionalText } from '../../schemas/common';

export const PurchaseOrderSend = z.strictObject({
  email: z.optional(z.email().check(z.maxLength(320))).check(z.describe("Where the purchase order goes; default the vendor's email.")),
  message: optionalText(2000).check(z.describe('A note for the vendor, carried in the purchase_order.sent event.')),
});
export type PurchaseOrderSend = z.infer<typeof PurchaseOrderSend>;
