import { loadPayments } from '../../shared/payments/payment-store';
import type { ExpandSpec } from '../../shared/http/expand';

type Parent = Record<string, unknown> & { entity_id: string; payment_ids: string[] };

/** What a deposit can expand: its payments (one query for the whole page). */
export const DEPOSIT_EXPAND: ExpandSpec = {
  payments: async ({ db }, parents) => {
    const deposits = parents as Parent[];
    const payments = await loadPayments(
      db,
      deposits[0].entity_id,
      deposits.flatMap((deposit) => deposit.payment_ids),
    );
    const byId = new Map(payments.map((payment) => [payment.id, payment]));
    for (const deposit of deposits) deposit.payments = deposit.payment_ids.map((id) => byId.get(id)).filter(Boolean);
  },
};
