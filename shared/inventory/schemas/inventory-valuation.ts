/** Inventory valuation: quantity on hand and FIFO layer value per product and location, as of a date. */
import * as z from 'zod/mini';
import { param, queryParams } from '../../schemas/parameters';
import { id, isoDate } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

const InventoryValuationItem = z
  .object({
    product_id: id(),
    sku: z.string(),
    product_name: z.string(),
    location_id: id(),
    location_name: z.string(),
    quantity_on_hand: z.number().check(z.describe('Units on hand at the end of as_of_date (4 decimals); negative when more left than arrived.')),
    value: z
      .number()
      .check(
        z.describe(
          "The FIFO cost layers' value at the end of as_of_date, in the currency (2 decimals). Units beyond the layers (negative stock) are worth nothing.",
        ),
      ),
  })
  .register(z.globalRegistry, { id: 'InventoryValuationItem', description: 'One product at one location on the date.' });

export const InventoryValuation = z
  .object({
    object: z.literal('inventory_valuation'),
    livemode: livemode(),
    as_of_date: isoDate(),
    items: z
      .array(InventoryValuationItem)
      .check(z.describe('One page of the products and locations with stock or value on as_of_date, by product_id, then location_id.')),
    has_more: z.boolean().check(z.describe('Whether more items exist in the direction of paging.')),
    next_cursor: z
      .nullable(z.string())
      .check(z.describe('Pass as starting_after (or as ending_before, when paging backwards) to continue; null on the last page. Opaque.')),
    totals: z
      .object({
        quantity_on_hand: z.number().check(z.describe('Σ quantity_on_hand over the items of every page (units of every product together).')),
        value: z.number().check(z.describe('Σ value over the items of every page; equal to inventory_account_balance.')),
      })
      .register(z.globalRegistry, {
        id: 'InventoryValuationTotals',
        description:
          'The items of every page summed, the same on each page: units of every product together, and the value that ties to the inventory account.',
      }),
    inventory_account_balance: z.number().check(z.describe('The inventory asset account balance (debits minus credits) posted on or before as_of_date.')),
  })
  .register(z.globalRegistry, {
    id: 'InventoryValuation',
    description: 'Stock on hand and its FIFO value per product and location as they stood at the end of as_of_date, beside the inventory account.',
  });
export type InventoryValuation = z.infer<typeof InventoryValuation>;

export const InventoryValuationQuery = queryParams({
  as_of_date: param.date('The date of the snapshot (default today, UTC): movements that occurred on or before it.'),
  limit: param.int({ min: 1, max: 1000 }, 'Items per page, 1 to 1000.', { default: 100 }),
  starting_after: param.text({ min: 1, max: 200 }, 'A next_cursor of this report: return the items after it.'),
  ending_before: param.text({ min: 1, max: 200 }, 'A next_cursor of this report: return the items before it (paging backwards); not with starting_after.'),
});
