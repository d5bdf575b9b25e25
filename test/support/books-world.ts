/**
 * The world of the whole-cycle books property test: one entity with two locations, a customer, a
 * vendor, a stocked widget and a kit of two widgets, an expense account, an approver of bills and a
 * controller who closes periods; and the untyped request helpers its operations use (each asserts
 * the answer it expects: a success, or a refusal with one of the codes the API is entitled to).
 */
import { expect } from 'vitest';
import { amount } from '../../shared/money';
import type { ApiResponse } from './client';
import type { TestApi, TestEntity } from './harness';
import { systemAccounts } from './books';
import { userWithKey } from './ledger-helpers';

export type Row = Record<string, unknown> & { id: string };
type Line = { id: string; quantity: number; quantity_fulfilled: number; billed_quantity: number; kit_parent_line_id: string | null; sell_rate: number };
export type Order = Row & {
  document_type: string;
  order_status: string;
  payment_status: string;
  balance_due: number;
  amount_paid: number;
  order_total: number;
  converted_from_id: string | null;
  source_order_id: string | null;
  lines?: Line[];
};
export type Payment = Row & {
  status: string;
  amount: number;
  amount_refunded: number;
  unapplied_amount: number;
  applied_count: number;
  order_id: string | null;
};

let sequence = 0;

export interface BooksWorld {
  api: TestApi;
  owner: TestEntity;
  system: Record<string, string>;
  bankAccountId: string;
  accountId: string;
  vendorId: string;
  locations: [string, string];
  widgetId: string;
  kitId: string;
  expenseAccountId: string;
  /** Holds purchasing.approve_bills: approves and posts what the owner creates. */
  approver: { userId: string; secret: string };
  /** Holds accounting.close_periods: approves the closes the owner requests. */
  controller: { userId: string; secret: string };
  /** The closed periods, oldest first, with the trial balance as of each end when it closed. */
  closed: { id: string; start: string; end: string; trial: unknown }[];
}

/** Sends one request (any route) with the owner's key unless `key` is given. */
export async function send(w: BooksWorld, method: string, path: string, body?: unknown, key = w.owner.secret): Promise<ApiResponse<Row>> {
  return (await w.api.raw(method, path, { key, ...(body === undefined ? {} : { body: body as never }) })) as ApiResponse<Row>;
}

/** How many requests of each kind answered what (`refund 201`, `kit build 422 insufficient_stock`): the coverage of a run. */
export const tally = new Map<string, number>();
const count = (what: string, response: ApiResponse<Row>) => {
  const key = `${what} ${response.status}${response.status >= 300 ? ` ${response.error?.code}` : ''}`;
  tally.set(key, (tally.get(key) ?? 0) + 1);
};

/** The answer must be a success; its body. */
export function ok(response: ApiResponse<Row>, what: string): Row {
  count(what, response);
  if (response.status >= 300) throw new Error(`${what}: expected a success, got ${response.status} ${response.text}`);
  return response.body;
}

/** A success (true), or a refusal with one of `codes` (false); never a 5xx nor another code. */
export function okOr(response: ApiResponse<Row>, codes: string[], what: string): boolean {
  count(what, response);
  if (response.status < 300) return true;
  expect(response.status, `${what}: ${response.text}`).toBeLessThan(500);
  expect(codes, `${what}: ${response.status} ${response.text}`).toContain(response.error.code);
  return false;
}

export const money = (value: AmountLikeNumber) => amount(value).toFixed(2);
type AmountLikeNumber = number | string;
export const today = () => new Date().toISOString().slice(0, 10);
export const at = <T>(items: T[], index: number): T | undefined => (items.length ? items[index % items.length] : undefined);

export async function list<T = Row>(w: BooksWorld, path: string, query: Record<string, string> = {}): Promise<T[]> {
  const response = await w.api.raw('GET', path, { key: w.owner.secret, query: { limit: '100', ...query } });
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${response.text}`);
  return (response.body as { data: T[] }).data;
}

export const orders = (w: BooksWorld, documentType: string, expandLines = false) =>
  list<Order>(w, '/v1/orders', { document_type: documentType, ...(expandLines ? { 'expand[]': 'data.lines' } : {}) });

export const payments = (w: BooksWorld) => list<Payment>(w, '/v1/payments');

/** Creates a bill (PO bill when poId), submits it as the owner, approves and posts it as the approver. */
export async function postedBill(w: BooksWorld, body: Record<string, unknown>): Promise<Row> {
  const draft = ok(await send(w, 'POST', '/v1/vendor-bills', body), 'create bill');
  ok(await send(w, 'POST', `/v1/vendor-bills/${draft.id}/submit`), 'submit bill');
  ok(await send(w, 'POST', `/v1/vendor-bills/${draft.id}/approve`, undefined, w.approver.secret), 'approve bill');
  return ok(await send(w, 'POST', `/v1/vendor-bills/${draft.id}/post`, undefined, w.approver.secret), 'post bill');
}

/** A purchase order of `quantity` widgets at `unitCost`, confirmed, at the first location. */
export async function purchaseOrder(w: BooksWorld, quantity: number, unitCost: string): Promise<Order> {
  const po = ok(
    await send(w, 'POST', '/v1/orders', {
      document_type: 'purchase_order',
      account_id: w.vendorId,
      location_id: w.locations[0],
      lines: [{ product_id: w.widgetId, quantity, sell_rate: unitCost }],
    }),
    'create purchase order',
  ) as Order;
  ok(await send(w, 'POST', `/v1/orders/${po.id}/confirm`), 'confirm purchase order');
  return po;
}

/** The world, with 200 widgets at 4.00 bought through a purchase order, received, billed and posted. */
export async function booksWorld(api: TestApi): Promise<BooksWorld> {
  const owner = await api.newEntity();
  const n = sequence++;
  const post = async (path: string, body: unknown) =>
    ok((await api.raw('POST', path, { key: owner.secret, body: body as never })) as ApiResponse<Row>, path).id;
  const system = await systemAccounts(api, owner);
  const accounts = await api.get(owner, '/v1/gl-accounts', { limit: '100' });
  const bankAccountId = accounts.data.find((a) => a.system_key === 'bank')?.bank_account_id ?? '';
  const widgetId = await post('/v1/products', { sku: `BW-${n}`, name: 'Widget', list_price: 10, cost: 4 });
  const w: BooksWorld = {
    api,
    owner,
    system,
    bankAccountId,
    accountId: await post('/v1/accounts', { name: 'Acme' }),
    vendorId: await post('/v1/vendors', { name: `Supplier ${n}` }),
    locations: [await post('/v1/locations', { name: 'Main' }), await post('/v1/locations', { name: 'Back room' })],
    widgetId,
    kitId: await post('/v1/kits', {
      sku: `BK-${n}`,
      product_name: 'Pair',
      list_price: 25,
      components: [{ component_product_id: widgetId, quantity_per_kit: 2 }],
    }),
    expenseAccountId: await post('/v1/gl-accounts', { code: `X${n}`, name: 'Supplies', type: 'expense' }),
    approver: await userWithKey(owner, ['purchasing.approve_bills']),
    controller: await userWithKey(owner, ['accounting.close_periods']),
    closed: [],
  };
  const po = await purchaseOrder(w, 200, '4.00');
  const line = (po.lines ?? [])[0];
  ok(await send(w, 'POST', `/v1/orders/${po.id}/receipts`, { lines: [{ line_id: line.id, quantity: 200 }] }), 'receive opening stock');
  await postedBill(w, { po_id: po.id });
  return w;
}
