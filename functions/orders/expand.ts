import { adjustmentsOf, linesOf } from '../../shared/orders/order-reads';
import { loadParties } from '../../shared/parties/parties';
import type { ExpandSpec } from '../../shared/http/expand';

type Parent = Record<string, unknown> & { id: string; entity_id: string; document_type: string; order_status: string; payment_status: string };

/** What an order can expand: its lines, its order-level adjustments, its account (a vendor on purchase orders). One query per kind per page. */
export const ORDER_EXPAND: ExpandSpec = {
  lines: async ({ db }, parents) => {
    const orders = parents as Parent[];
    const byOrder = await linesOf(db, orders[0].entity_id, orders);
    for (const order of orders) order.lines = byOrder.get(order.id) ?? [];
  },
  adjustments: async ({ db }, parents) => {
    const orders = parents as Parent[];
    const byOrder = await adjustmentsOf(
      db,
      orders[0].entity_id,
      orders.map((order) => order.id),
    );
    for (const order of orders) order.adjustments = byOrder.get(order.id) ?? [];
  },
  account: async ({ db }, parents) => {
    const orders = parents as (Parent & { account_id: string })[];
    const ids = (kind: 'vendor' | 'account') => [
      ...new Set(orders.filter((o) => (o.document_type === 'purchase_order') === (kind === 'vendor')).map((o) => o.account_id)),
    ];
    const vendors = ids('vendor').length ? await loadParties(db, 'vendor', ids('vendor')) : [];
    const accounts = ids('account').length ? await loadParties(db, 'account', ids('account')) : [];
    const byId = new Map([...vendors, ...accounts].map((party) => [party.id, party]));
    for (const order of orders) order.account = byId.get(order.account_id) ?? null;
  },
};
