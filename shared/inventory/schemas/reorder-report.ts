import { param, queryParams } from '../../schemas/parameters';
import * as z from 'zod/mini';
import { DEMAND_BASES } from '../../catalog/demand';
import { id, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const ReorderReportQuery = queryParams({
  demand_window: param.int({ min: 1, max: 365 }, 'Days of history daily_demand averages over (1 to 365, default 90).', { default: 90 }),
  demand_basis: param.oneOf(
    DEMAND_BASES,
    'Which decrements count as demand: sales (fulfilled sales), builds (build_consume draws), sales_and_builds (both; default), consumption (both plus negative adjustments). Each physical decrement counts once.',
    { default: 'sales_and_builds' },
  ),
  location_id: param.id('Stock and demand of this location only; default the whole entity.'),
  vendor_id: param.id('Only products whose preferred vendor is this vendor.'),
  include_all: param.flag('Also list products that need nothing (net_suggested_qty 0).'),
  limit: param.int({ min: 1, max: 1000 }, 'Rows per page, 1 to 1000.', { default: 100 }),
  starting_after: param.id('A product_id from the previous page.'),
});

export const ReorderRow = z
  .object({
    product_id: id(),
    sku: z.string(),
    product_name: z.string(),
    on_hand: z.number(),
    committed: z.number().check(z.describe('Unshipped quantity of open sales order lines (kit component lines, not kit lines), as on inventory balances.')),
    available: z.number(),
    on_order: z
      .number()
      .check(z.describe('Unreceived quantity of lines on confirmed, partially fulfilled and on-hold purchase orders (at location_id when given).')),
    reorder_point: z.nullable(z.number()),
    demand_units: z.number().check(z.describe('Units of demand in the window, by demand_basis.')),
    daily_demand: z.number().check(z.describe('demand_units / demand_window, 4 decimals.')),
    lead_time_days: z.nullable(z.number().check(z.int())),
    suggested_reorder_point: z
      .number()
      .check(
        z.describe(
          "daily_demand x the preferred vendor's lead_time_days (0 without one), 4 decimals: the lead-time demand, a computed advice that moves with the demand rules. The product's stored reorder_point still drives the stock events and target_level.",
        ),
      ),
    target_level: z.number().check(z.describe('reorder_point + daily_demand x lead_time_days.')),
    suggested_qty: z.number().check(z.describe('target_level - (on_hand - committed + on_order), never below 0.')),
    net_suggested_qty: z.number().check(z.describe("suggested_qty raised to the vendor's minimum order and rounded up to its order_multiple.")),
    order_multiple: z.nullable(z.number()),
    preferred_vendor_id: z.nullable(id()),
    preferred_vendor_name: z.nullable(z.string()),
    product_vendor_id: z.nullable(id()),
    vendor_cost: z.nullable(z.number()),
    estimated_cost: z.nullable(z.number()).check(z.describe('net_suggested_qty x vendor_cost, 2 decimals.')),
  })
  .register(z.globalRegistry, { id: 'ReorderReportRow' });
export type ReorderRow = z.infer<typeof ReorderRow>;

export const ReorderReport = z
  .object({
    object: z.literal('reorder_report'),
    livemode: livemode(),
    demand_window: z.number().check(z.int()),
    demand_basis: z.enum(DEMAND_BASES),
    location_id: z.nullable(id()),
    generated_at: timestamp(),
    data: z.array(ReorderRow),
    has_more: z.boolean(),
    next_cursor: z.nullable(z.string()),
  })
  .register(z.globalRegistry, { id: 'ReorderReport' });
