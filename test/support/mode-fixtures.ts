/**
 * The live-versus-test half of the security matrix: records of one mode that a request of the
 * other mode names in its body. Each route's sample body (route-fixtures.ts) is rewritten so that
 * every id it references points at a real record of the other mode; the request must then be
 * refused exactly as for an id that does not exist.
 */
import { newId } from '../../shared/ids';
import type { TestApi, TestEntity } from './harness';
import { bankAccount } from './cash-fixtures';
import { seedOrder } from './order-fixtures';

/** One record of each kind a request body can reference, all of one entity (one mode). */
export interface ReferenceRecords {
  product: string;
  location: string;
  otherLocation: string;
  account: string;
  vendor: string;
  tag: string;
  order: string;
  line: string;
  payment: string;
  glAccount: string;
  bankAccount: string;
  option: string;
}

let sequence = 0;

export async function seedReferences(api: TestApi, owner: TestEntity): Promise<ReferenceRecords> {
  const n = `${Date.now().toString(36)}-${sequence++}`;
  const product = await api.post(owner, '/v1/products', { sku: `REF-${n}`, name: `Referenced ${n}` });
  const location = await api.post(owner, '/v1/locations', { name: `Ref A ${n}` });
  const otherLocation = await api.post(owner, '/v1/locations', { name: `Ref B ${n}` });
  const account = await api.post(owner, '/v1/accounts', { name: `Ref customer ${n}` });
  const vendor = await api.post(owner, '/v1/vendors', { name: `Ref vendor ${n}` });
  const tag = await api.post(owner, '/v1/tags', { name: `Ref tag ${n}` });
  const order = await seedOrder(api, owner);
  const payment = await api.post(owner, '/v1/payments/multi-invoice-apply', { account_id: account.id, amount: 5, route_unapplied: 'credit' });
  const bank = await bankAccount(api, owner);
  const option = await api.post(owner, `/v1/products/${product.id}/options`, { name: `Ref size ${n}` });
  return {
    product: product.id,
    location: location.id,
    otherLocation: otherLocation.id,
    account: account.id,
    vendor: vendor.id,
    tag: tag.id,
    order: order.id,
    line: order.item_id,
    payment: payment.data.id,
    glAccount: bank.id,
    bankAccount: bank.bank_account_id,
    option: option.id,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Which record a body field names. `account_id` is a customer account at the top of a document
 * and a GL account inside journal lines. Users are not listed: a user is the same person (same
 * id) in both modes of an entity.
 */
function referenceFor(key: string, within: string | undefined, refs: ReferenceRecords): string | undefined {
  switch (key) {
    case 'product_id':
    case 'component_product_id':
      return refs.product;
    case 'location_id':
    case 'from_location_id':
      return refs.location;
    case 'to_location_id':
      return refs.otherLocation;
    case 'account_id':
      return within === 'lines' ? refs.glAccount : refs.account;
    case 'vendor_id':
      return refs.vendor;
    case 'tag_id':
      return refs.tag;
    case 'order_id':
      return refs.order;
    case 'line_id':
      return refs.line;
    case 'bank_account_id':
      return refs.bankAccount;
    case 'payment_ids':
      return refs.payment;
    case 'order':
      return refs.option;
    default:
      return undefined;
  }
}

/**
 * `body` with every referenced id replaced by the matching record of `refs`, and how many were
 * replaced (0: the route references nothing by id in its body).
 */
export function crossModeBody(body: unknown, refs: ReferenceRecords): { body: unknown; replaced: number } {
  let replaced = 0;
  const walk = (value: unknown, key: string | undefined, within: string | undefined): unknown => {
    if (typeof value === 'string' && key && UUID.test(value)) {
      const ref = referenceFor(key, within, refs);
      if (ref) replaced++;
      return ref ?? value;
    }
    if (Array.isArray(value)) return value.map((item) => walk(item, key, key));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, walk(member, name, within)]));
    }
    return value;
  };
  return { body: walk(body, undefined, undefined), replaced };
}

/** How many ids of records `body` names (known before anything is seeded, to skip a route that names none). */
export function referenceCount(body: unknown): number {
  const any = new Proxy({} as ReferenceRecords, { get: () => 'named' });
  return crossModeBody(body, any).replaced;
}

/**
 * Seeders for the live half where the API cannot build the state with a live key: a saved card
 * needs the processor's client library in live mode (the test helper that confirms a setup intent
 * takes test keys only). Direct SQL writes the row such a confirmation leaves behind.
 */
export const LIVE_SEEDERS: Record<string, (api: TestApi, owner: TestEntity) => Promise<Record<string, string>>> = {
  '/v1/accounts/{id}/payment-methods/{payment_method_id}': async (api, owner) => {
    const account = await api.post(owner, '/v1/accounts', { name: `Live card holder ${sequence++}` });
    const id = newId();
    await owner.sql((db) =>
      db.query(
        `INSERT INTO account_payment_methods (id, entity_id, account_id, processor, processor_payment_method_id, processor_setup_intent_id, type, card_brand, last_four, exp_month, exp_year)
         VALUES ($1, $2, $3, 'stripe', $4, $5, 'card', 'visa', '4242', 12, 2030)`,
        [id, owner.entity.id, account.id, `pm_live_${sequence}`, `seti_live_${sequence}`],
      ),
    );
    return { id: account.id, payment_method_id: id };
  },
};
