/**
 * New order lines, in batches: every reference of every line is loaded with one query per kind
 * (products, catalog prices, tax rates, vendors, product-vendor relationships, units, kit
 * components), each line is checked in input order (the first failing line wins, with the error
 * it would have had alone), and the lines and their kit component lines are written with one
 * statement each. addLine is the batch of one.
 */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { newId } from '../ids';
import {
  kitComponentsOf,
  lineProducts,
  pricedLineProducts,
  productVendorLinks,
  productVendorsByIds,
  regularPolicyPrices,
  keySharedUnitsOfMeasure,
  type LineProduct,
} from '../catalog/product-facts';
import { existingPartyIds } from '../parties/parties';
import { amount, round } from '../money';
import { computeTotals } from './totals';
import { byInsertedDisplayOrder, LINE_COLUMNS, type LineRow } from './order-line-store';
import type { OrderLineCreate } from './schemas/order-requests';

export interface OrderHeader {
  id: string;
  document_type: string;
  order_status: string;
  payment_status: string;
  account_id: string;
}

const key = (id: string) => id.toLowerCase();
const distinct = (ids: (string | null | undefined)[]) => [...new Set(ids.filter((id): id is string => !!id).map(key))];

/** The rows of `table` (in the entity) with the given ids, by id: one query for any number. */
/** Rows by id, for the distinct ids given (lower-cased, as the keys of the map). */
async function byId<T extends { id: string }>(ids: (string | null | undefined)[], load: (wanted: string[]) => Promise<T[]>): Promise<Map<string, T>> {
  const wanted = distinct(ids);
  const rows = wanted.length ? await load(wanted) : [];
  return new Map(rows.map((row) => [row.id, row]));
}

export const productsById = (db: Db, entityId: string, ids: string[]) => byId<LineProduct>(ids, (wanted) => lineProducts(db, entityId, wanted));

export const taxRatesById = (db: Db, entityId: string, ids: (string | null | undefined)[]) =>
  byId(ids, (wanted) =>
    db.query<{ id: string; rate: string; is_active: boolean }>('SELECT id, rate, is_active FROM tax_rates WHERE entity_id = $1 AND id = ANY($2::uuid[])', [
      entityId,
      wanted,
    ]),
  );

/** The rate of an active tax rate of the entity (404 when unknown, 400 when inactive). */
export function checkedTaxRate(rates: Map<string, { rate: string; is_active: boolean }>, taxRateId: string, param: string): string {
  const row = rates.get(key(taxRateId));
  if (!row) throw new ApiError('not_found', { param, hint: 'No such tax rate in this entity.' });
  if (!row.is_active) throw new ApiError('parameter_invalid', { param, hint: 'This tax rate is inactive.' });
  return row.rate;
}

/** The vendors of the entity among `ids`, by id. */
export const vendorIds = (db: Db, entityId: string, ids: (string | null | undefined)[]) =>
  byId(ids, async (wanted) => (await existingPartyIds(db, 'vendor', entityId, wanted)).map((id) => ({ id })));

export function checkVendor(vendors: Map<string, unknown>, vendorId: string, param: string): void {
  if (!vendors.has(key(vendorId))) throw new ApiError('not_found', { param, hint: 'No such vendor in this entity.' });
}

/** The units of measure of the entity among `ids` (key-share locked: lines will point at them). */
export const unitsOfMeasure = (db: Db, entityId: string, ids: (string | null | undefined)[]) =>
  byId(ids, async (wanted) => (await keySharedUnitsOfMeasure(db, entityId, wanted)).map((id) => ({ id })));

/** A line's unit_of_measure_id is allowed (undefined and null always are): purchase order lines only, a unit of the entity. */
export function checkUnitOfMeasure(documentType: string, units: Map<string, unknown>, unitId: string | null | undefined, param: string): void {
  if (unitId === undefined || unitId === null) return;
  if (documentType !== 'purchase_order') {
    throw new ApiError('parameter_invalid', { param, hint: 'Only purchase order lines carry a unit of measure (the unit the vendor sells in).' });
  }
  if (!units.has(key(unitId))) throw new ApiError('not_found', { param, hint: 'No such unit of measure in this entity.' });
}

/**
 * The catalog price of each item (a product and a quantity) for a party.
 * Sales documents: the active `regular` pricing policy without a level whose min_quantity the
 * quantity reaches, an account-specific one before a general one, then the highest tier, then the
 * default, then the newest; else the product's list price. list_price is the policy's (else the
 * product's). Purchase orders: the vendor's cost on the product-vendor relationship, else the
 * product's cost.
 */
export async function catalogPrices(
  db: Db,
  entityId: string,
  documentType: string,
  partyId: string,
  items: { product: LineProduct; quantity: string }[],
): Promise<{ list_price: string; sell_rate: string }[]> {
  if (!items.length) return [];
  if (documentType === 'purchase_order') {
    const rows = await productVendorLinks(
      db,
      entityId,
      items.map((item) => item.product.id),
      [partyId],
    );
    const costs = new Map(rows.map((row) => [row.product_id, row.vendor_cost]));
    return items.map(({ product }) => {
      const cost = costs.get(product.id) ?? product.cost ?? '0';
      return { list_price: cost, sell_rate: cost };
    });
  }
  const policies = await regularPolicyPrices(
    db,
    entityId,
    partyId,
    items.map((item) => ({ product_id: item.product.id, quantity: item.quantity })),
  );
  return items.map(({ product }, index) => salesPrice(product, policies[index]));
}

/** A sales line's catalog price from its product and its policy's prices (catalogPrices). */
function salesPrice(product: LineProduct, policy: { sell_price: string | null; list_price: string | null }): { list_price: string; sell_rate: string } {
  const sell = policy.sell_price;
  const list = policy.list_price ?? product.list_price ?? sell ?? '0';
  return { list_price: list, sell_rate: sell ?? list };
}

type Priced = { input: OrderLineCreate; product: LineProduct };

/** The lines whose product exists, with it. */
const withKnownProducts = (inputs: OrderLineCreate[], products: Map<string, LineProduct>): Priced[] =>
  inputs.flatMap((input) => {
    const product = products.get(key(input.product_id));
    return product ? [{ input, product }] : [];
  });

/**
 * The products of the lines (by id) and the catalog price of each line whose product exists: a
 * sales document reads both with one statement, a purchase order its products and then its vendor costs.
 */
async function pricedInputs(
  db: Db,
  entityId: string,
  order: OrderHeader,
  inputs: OrderLineCreate[],
): Promise<{ products: Map<string, LineProduct>; priceOf: Map<OrderLineCreate, { list_price: string; sell_rate: string }> }> {
  if (order.document_type === 'purchase_order') {
    const products = await productsById(
      db,
      entityId,
      inputs.map((input) => input.product_id),
    );
    const known = withKnownProducts(inputs, products);
    const prices = await catalogPrices(
      db,
      entityId,
      order.document_type,
      order.account_id,
      known.map(({ input, product }) => ({ product, quantity: input.quantity })),
    );
    return { products, priceOf: new Map(known.map((item, index) => [item.input, prices[index]])) };
  }
  const rows = await pricedLineProducts(
    db,
    entityId,
    order.account_id,
    inputs.map((input) => ({ product_id: input.product_id, quantity: input.quantity })),
  );
  const products = new Map<string, LineProduct>();
  const priceOf = new Map<OrderLineCreate, { list_price: string; sell_rate: string }>();
  for (const [index, { product, ...policy }] of rows.entries()) {
    if (!product) continue;
    products.set(product.id, product);
    priceOf.set(inputs[index], salesPrice(product, policy));
  }
  return { products, priceOf };
}

export function resolveSellRate(input: { sell_rate?: string; unit_price?: string }, param: (name: string) => string): string | undefined {
  if (input.sell_rate !== undefined && input.unit_price !== undefined && !amount(input.sell_rate).eq(input.unit_price)) {
    throw new ApiError('parameter_invalid', { param: param('unit_price'), hint: 'unit_price is the same as sell_rate; send one of them.' });
  }
  return input.sell_rate ?? input.unit_price;
}

// The types of the columns of the line INSERT from id on (one array each).
const LINE_TYPES =
  'uuid uuid uuid text text numeric numeric numeric boolean numeric numeric uuid numeric boolean text numeric numeric boolean uuid text integer uuid numeric numeric numeric numeric numeric';

/** The derived columns a line is inserted with, after the input ones (LINE_TYPES). */
const INSERTED_DERIVED = ['pricing_rule_adjustment', 'line_subtotal', 'coupon_adjustment', 'tax_amount', 'line_total'] as const;

/**
 * The derived values of a new order's lines (no other lines, no adjustments), as recalculation
 * will derive them with the same engine: inserted with them, the lines need no rewrite when it
 * runs. Rows as insertLines builds them; in the display order (sort_order, then input order).
 */
function derivedValues(rows: unknown[][], order: NewOrderTotals): unknown[][] {
  const display = rows.map((_, index) => index).sort((a, b) => (rows[a][20] as number) - (rows[b][20] as number) || a - b);
  const totals = computeTotals({
    lines: display.map((index) => {
      const row = rows[index];
      return {
        quantity: row[5] as string,
        list_price: row[6] as string,
        sell_rate: row[7] as string,
        discount_amount: row[9] as string,
        discount_percent: row[10] as string | null,
        tax_rate: row[11] ? (row[12] as string) : null,
        is_tax_exempt: row[13] as boolean,
        is_kit_component: false,
        is_kit: false,
      };
    }),
    adjustments: [],
    shipping_total: order.shipping_total,
    tax_exempt: order.tax_exempt,
  });
  const derived: unknown[][] = rows.map(() => []);
  display.forEach((index, position) => {
    const line = totals.lines[position];
    derived[index] = [line.discount_amount.toString(), ...INSERTED_DERIVED.map((field) => line[field].toString())];
  });
  return derived;
}

/** What the totals of a new order's lines depend on beyond the lines. */
export interface NewOrderTotals {
  shipping_total: string;
  tax_exempt: boolean;
}

/**
 * Inserts the lines (and, for a kit or bundle on a sales document, its component lines) after the
 * order's last line; `prefix(index)` names a line in error params ('lines[3].', or '' for one line).
 * For a new order (`newOrder`) whose lines went in with their derived values (no kit components),
 * returns its lines as stored, in the display order (lineRows); otherwise undefined.
 */
export async function insertLines(
  db: Db,
  entityId: string,
  order: OrderHeader,
  inputs: OrderLineCreate[],
  prefix: (index: number) => string,
  lastSortOrder: number | null = null,
  newOrder?: NewOrderTotals,
): Promise<LineRow[] | undefined> {
  if (!inputs.length) return newOrder ? [] : undefined;
  const isPurchase = order.document_type === 'purchase_order';
  const { products, priceOf } = await pricedInputs(db, entityId, order, inputs);
  const known = withKnownProducts(inputs, products);
  const rates = await taxRatesById(
    db,
    entityId,
    inputs.map((input) => input.tax_rate_id),
  );
  const vendors = await vendorIds(
    db,
    entityId,
    inputs.map((input) => input.drop_ship_vendor_id),
  );
  const relations = await byId(
    inputs.map((input) => input.product_vendor_id),
    (wanted) => productVendorsByIds(db, entityId, wanted),
  );
  const units = isPurchase
    ? await unitsOfMeasure(
        db,
        entityId,
        inputs.map((input) => input.unit_of_measure_id),
      )
    : new Map<string, unknown>();
  const kitIds = isPurchase
    ? []
    : distinct(known.filter(({ product }) => product.product_type === 'kit' || product.product_type === 'bundle').map(({ product }) => product.id));
  const components = kitIds.length ? await kitComponentsOf(db, entityId, kitIds) : [];
  const componentById = new Map(components.map((component) => [component.id, component]));
  const componentsOf = new Map<string, string[]>();
  for (const row of components) componentsOf.set(row.parent_product_id, [...(componentsOf.get(row.parent_product_id) ?? []), row.id]);

  const lines: unknown[][] = [];
  const parts: { id: string; component: string; parent: string; quantity: string; sortOrder: number }[] = [];
  let last = lastSortOrder;
  for (const [index, input] of inputs.entries()) {
    const param = (name: string) => `${prefix(index)}${name}`;
    const product = products.get(key(input.product_id));
    if (!product) throw new ApiError('not_found', { param: param('product_id'), hint: 'No such product in this entity.' });
    if (input.discount_amount !== undefined && input.discount_percent !== undefined && input.discount_percent !== null) {
      throw new ApiError('parameter_invalid', { param: param('discount_percent'), hint: 'Send discount_amount or discount_percent, not both.' });
    }
    const override = resolveSellRate(input, param);
    const price = priceOf.get(input)!;
    const sellRate = override ?? price.sell_rate;
    const lineSubtotal = round(amount(sellRate).times(input.quantity));
    if (input.discount_amount !== undefined && amount(input.discount_amount).gt(lineSubtotal)) {
      throw new ApiError('parameter_invalid', { param: param('discount_amount'), hint: 'A line discount cannot exceed the line subtotal.' });
    }
    const rate = input.tax_rate_id ? checkedTaxRate(rates, input.tax_rate_id, param('tax_rate_id')) : null;
    if (input.drop_ship_vendor_id) checkVendor(vendors, input.drop_ship_vendor_id, param('drop_ship_vendor_id'));
    if (input.product_vendor_id && relations.get(key(input.product_vendor_id))?.product_id !== product.id) {
      throw new ApiError('not_found', { param: param('product_vendor_id'), hint: 'No such vendor relationship on this product.' });
    }
    checkUnitOfMeasure(order.document_type, units, input.unit_of_measure_id, param('unit_of_measure_id'));
    // After the last line so far (component lines share their kit's sort_order).
    const sortOrder = input.sort_order ?? (last ?? 0) + 1;
    last = last === null || sortOrder > last ? sortOrder : last;
    const id = newId();
    lines.push([
      id,
      product.id,
      input.product_vendor_id ?? null,
      product.sku,
      input.title ?? product.name,
      input.quantity,
      price.list_price,
      sellRate,
      override !== undefined,
      input.discount_amount ?? '0',
      input.discount_percent ?? null,
      input.tax_rate_id ?? null,
      rate,
      input.is_tax_exempt ?? false,
      input.product_tax_code ?? null,
      isPurchase ? sellRate : product.cost,
      input.weight ?? null,
      input.is_drop_ship ?? input.drop_ship_vendor_id != null,
      input.drop_ship_vendor_id ?? null,
      input.notes ?? null,
      sortOrder,
      input.unit_of_measure_id ?? null,
    ]);
    // Component lines (a bundle's too): quantity per kit × kits, priced on the kit's line (sell_rate 0).
    for (const component of componentsOf.get(product.id) ?? []) parts.push({ id: newId(), component, parent: id, quantity: input.quantity, sortOrder });
  }
  // A new order's lines without kit components go in with their derived values; others with the
  // columns' defaults (0), which recalculation then rewrites.
  const derived = newOrder && !parts.length ? derivedValues(lines, newOrder) : undefined;
  for (const [index, line] of lines.entries()) {
    if (derived) line[9] = derived[index][0];
    line.push(...(derived ? derived[index].slice(1) : INSERTED_DERIVED.map(() => '0')));
  }
  // Columns in the order of the arrays (entity and order first): SELECT * of the unnest needs no column list.
  const inserted = await db.query<LineRow>(
    `INSERT INTO order_lines AS l (entity_id, order_id, id, product_id, product_vendor_id, sku, title, quantity, list_price, sell_rate, price_overridden,
discount_amount, discount_percent, tax_rate_id, tax_rate, is_tax_exempt, product_tax_code, unit_cost, weight, is_drop_ship, drop_ship_vendor_id, notes,
sort_order, unit_of_measure_id, ${INSERTED_DERIVED.join(', ')}) SELECT $1::uuid, $2::uuid, * FROM unnest(${LINE_TYPES.split(' ')
      .map((type, index) => `$${index + 3}::${type}[]`)
      .join(',')}) ${derived ? `RETURNING ${LINE_COLUMNS}` : ''}`,
    [entityId, order.id, ...lines[0].map((_, column) => lines.map((line) => line[column]))],
  );
  if (parts.length) {
    await db.query(
      `INSERT INTO order_lines (id, entity_id, order_id, product_id, kit_parent_line_id, sku, title, quantity, list_price, sell_rate, price_overridden,
unit_cost, sort_order) SELECT v.id, $1, $2, v.product_id, v.parent_id, v.sku, v.title, round(v.quantity_per_kit * v.quantity, 4), coalesce(v.list_price, 0), 0,
true, v.cost, v.sort_order FROM unnest($3::uuid[], $4::uuid[], $5::uuid[], $6::text[], $7::text[], $8::numeric[], $9::numeric[], $10::numeric[],
$11::numeric[], $12::integer[]) AS v(id, product_id, parent_id, sku, title, quantity_per_kit, quantity, list_price, cost, sort_order)`,
      [
        entityId,
        order.id,
        parts.map((part) => part.id),
        parts.map((part) => componentById.get(part.component)!.component_product_id),
        parts.map((part) => part.parent),
        parts.map((part) => componentById.get(part.component)!.sku),
        parts.map((part) => componentById.get(part.component)!.name),
        parts.map((part) => componentById.get(part.component)!.quantity_per_kit),
        parts.map((part) => part.quantity),
        parts.map((part) => componentById.get(part.component)!.list_price),
        parts.map((part) => componentById.get(part.component)!.cost),
        parts.map((part) => part.sortOrder),
      ],
    );
  }
  return derived ? inserted.sort(byInsertedDisplayOrder) : undefined;
}
