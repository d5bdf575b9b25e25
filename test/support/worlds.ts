/**
 * Factories of the worlds tests start from, set up through the API: an entity with its key, a
 * location, a customer account, products, and helpers to make and move orders in that world.
 *
 *   const w = await salesWorld(api);                                  // Main, Acme, Widget (10, cost 4), Gadget (5, cost 1)
 *   const so = await w.order('sales_order', [{ product_id: w.widget.id, quantity: 2 }]);
 *   await w.receive(w.widget.id, 10, 4);
 *   await w.act(so.id, 'confirm');
 *   await w.act(so.id, 'fulfillments', { lines: [{ line_id: so.lines[0].id, quantity: 2 }] });
 *
 * Options leave things out or change them, so each test file gets exactly the world it had.
 */
import { withLines, type BodyAndStatus, type BodyFor, type Caller, type ResponseFor, type TestClient, type WithLines } from './client';
import type { OrderAction, ResponseOf, RouteFor } from './client-types';
import type { TestApi, TestEntity } from './harness';

export type ProductBody = BodyFor<'POST', '/v1/products'>;
type VendorBody = BodyFor<'POST', '/v1/vendors'>;
export type OrderBody = BodyFor<'POST', '/v1/orders'>;
export type OrderLineBody = NonNullable<OrderBody['lines']>[number];
export type DocumentType = OrderBody['document_type'];

type Location = ResponseFor<'GET', '/v1/locations/{id}'>;
export type Account = ResponseFor<'GET', '/v1/accounts/{id}'>;
type Vendor = ResponseFor<'GET', '/v1/vendors/{id}'>;
type Product = ResponseFor<'GET', '/v1/products/{id}'>;
type Order = ResponseFor<'GET', '/v1/orders/{id}'>;
export type OrderWithLines = WithLines<Order>;

type ActionPath<A extends string> = `/v1/orders/${string}/${A}`;
type ActionArgs<A extends OrderAction> = BodyAndStatus<RouteFor<'POST', ActionPath<A>>>;
export type ActionResult<A extends OrderAction> = WithLines<ResponseOf<RouteFor<'POST', ActionPath<A>>>>;

/** The success status of each order action: creates answer 201, moves 200. */
const ACTION_STATUS: Partial<Record<OrderAction, number>> = {
  convert: 201,
  duplicate: 201,
  fulfillments: 201,
  lines: 201,
  payments: 201,
  receipts: 201,
  returns: 201,
  'receive-return': 201,
  'drop-ship-purchase-orders': 201,
};

/** POST /v1/orders/{id}/<action>, which must answer its success status (or `status`); the body. */
export async function orderAction<A extends OrderAction>(
  api: TestClient,
  caller: Caller,
  orderId: string,
  action: A,
  ...[body, status = ACTION_STATUS[action] ?? 200]: ActionArgs<A>
): Promise<ActionResult<A>> {
  const response = await api.raw('POST', `/v1/orders/${orderId}/${action}`, { key: typeof caller === 'string' ? caller : caller.secret, body });
  if (response.status !== status) throw new Error(`POST /v1/orders/${orderId}/${action}: expected ${status}, got ${response.status} ${response.text}`);
  return withLines(response.body) as ActionResult<A>;
}

/** GET /v1/orders/{id}, with its lines. */
export async function getOrder(api: TestClient, caller: Caller, orderId: string): Promise<OrderWithLines> {
  return api.get(caller, `/v1/orders/${orderId}`);
}

let sequence = 0;
/** A short name no other test of the run uses: `W-12`. */
const unique = (prefix: string) => `${prefix}-${sequence++}`;

export interface SalesWorldOptions {
  /** false: no location (documents then carry none). Default: one named Main. */
  location?: false;
  /** The customer account's name (Acme), or false for none. */
  account?: string | false;
  /** A second customer account of this name. */
  other?: string;
  /** A vendor made with this body. */
  vendor?: VendorBody;
  /** The widget's body, sku aside (default Widget at 10.00, cost 4.00). */
  widget?: Omit<ProductBody, 'sku'>;
  /** The gadget's body, sku aside (default Gadget at 5.00, cost 1.00), or false for none. */
  gadget?: Omit<ProductBody, 'sku'> | false;
  /** Widgets received into the location at the widget's cost. */
  widgetStock?: number;
}

export const WIDGET = { name: 'Widget', list_price: 10, cost: 4 } satisfies Omit<ProductBody, 'sku'>;
export const GADGET = { name: 'Gadget', list_price: 5, cost: 1 } satisfies Omit<ProductBody, 'sku'>;

type Has<O, K extends string, V, T> = O extends { [key in K]: V } ? T : undefined;

export interface SalesWorld<O extends SalesWorldOptions = Record<never, never>> {
  owner: TestEntity;
  location: O extends { location: false } ? undefined : Location;
  account: O extends { account: false } ? undefined : Account;
  other: Has<O, 'other', string, Account>;
  vendor: Has<O, 'vendor', object, Vendor>;
  widget: Product;
  gadget: O extends { gadget: false } ? undefined : Product;
  /** A draft document for the customer account, at the location when there is one. */
  order: (documentType: DocumentType, lines?: OrderLineBody[], extra?: Partial<OrderBody>) => Promise<OrderWithLines>;
  /** Stock received at the location. */
  receive: (productId: string, quantity: number, unitCost: number) => Promise<ResponseFor<'POST', '/v1/inventory/receipts'>>;
  /** POST /v1/orders/{id}/<action> as the owner: see orderAction. */
  act: <A extends OrderAction>(orderId: string, action: A, ...bodyAndStatus: ActionArgs<A>) => Promise<ActionResult<A>>;
  /** GET /v1/orders/{id} as the owner. */
  getOrder: (orderId: string) => Promise<OrderWithLines>;
}

/** A new entity with a location, a customer account and two products (see SalesWorldOptions). */
export async function salesWorld<const O extends SalesWorldOptions = Record<never, never>>(api: TestApi, options: O = {} as O): Promise<SalesWorld<O>> {
  const owner = await api.newEntity();
  const location = options.location === false ? undefined : await api.post(owner, '/v1/locations', { name: 'Main' });
  const account = options.account === false ? undefined : await api.post(owner, '/v1/accounts', { name: options.account ?? 'Acme' });
  const other = options.other === undefined ? undefined : await api.post(owner, '/v1/accounts', { name: options.other });
  const vendor = options.vendor === undefined ? undefined : await api.post(owner, '/v1/vendors', options.vendor);
  const widget = await api.post(owner, '/v1/products', { sku: unique('W'), ...(options.widget ?? WIDGET) });
  const gadget = options.gadget === false ? undefined : await api.post(owner, '/v1/products', { sku: unique('G'), ...(options.gadget ?? GADGET) });
  if (options.widgetStock !== undefined) {
    if (!location || widget.cost === null) throw new Error('stock needs a location and a widget cost');
    await api.post(owner, '/v1/inventory/receipts', {
      product_id: widget.id,
      location_id: location.id,
      quantity: options.widgetStock,
      unit_cost: widget.cost ?? Number.NaN,
    });
  }
  const world: Omit<SalesWorld, 'location' | 'account' | 'other' | 'vendor' | 'gadget'> &
    Record<'location' | 'account' | 'other' | 'vendor' | 'gadget', unknown> = {
    owner,
    location,
    account,
    other,
    vendor,
    widget,
    gadget,
    order: async (documentType, lines, extra = {}) => {
      if (!account) throw new Error('this world has no customer account');
      const body: OrderBody = {
        document_type: documentType,
        account_id: account.id,
        ...(location && { location_id: location.id }),
        ...(lines && { lines }),
        ...extra,
      };
      return api.post(owner, '/v1/orders', body);
    },
    receive: (productId, quantity, unitCost) => {
      if (!location) throw new Error('this world has no location');
      return api.post(owner, '/v1/inventory/receipts', { product_id: productId, location_id: location.id, quantity, unit_cost: unitCost });
    },
    act: (orderId, action, ...bodyAndStatus) => orderAction(api, owner, orderId, action, ...bodyAndStatus),
    getOrder: (orderId) => getOrder(api, owner, orderId),
  };
  return world as unknown as SalesWorld<O>;
}
