/** The body of POST /v1/orders/{id}/send. */
import * as z from 'zod';
import { optionalText } from '../../schemas/common';

export const PurchaseOrderSend = z.strictObject({
  email: z.email().max(320).optional().describe("Where the purchase order goes; default the vendor's email."),
  message: optionalText(2000).describe('A note for the vendor, carried in the purchase_order.sent event.'),
});
export type PurchaseOrderSend = z.infer<typeof PurchaseOrderSend>;
