/**
 * The stock operations behind the inventory and kit-build endpoints: receipts, adjustments,
 * transfers between locations and kit builds, each posted as movements (stock-movements.ts) and
 * each posting the change of the stock valuation it made (stock-postings.ts):
 * - a receipt debits inventory and credits opening_balance_equity with its cost in cents (stock
 *   that enters without a purchase order: opening stock, migrated history);
 * - an adjustment moves inventory against inventory_adjustments (shrinkage, counts, found stock);
 * - a transfer or a kit build carries the cents that left into the new layers, so it changes the
 *   valuation only when it settles negative stock, which posts to inventory_adjustments.
 * Each is dated by occurred_at (its UTC date; default today).
 */
import type { Db } from '../db/database';
import { isoDateOf, todayUtc } from '../dates';
import { ApiError } from '../errors';
import { newId } from '../ids';
import type { PostingContext } from '../ledger/post-journal-entry';
import { amount, QUANTITY_SCALE, toJsonNumber, ZERO } from '../money';
import { layerValue } from './fifo';
import {
  COST_SCALE,
  type AdjustmentCreate,
  type InventoryTransaction,
  type KitBuildCreate,
  type ReceiptCreate,
  type TransferCreate,
} from './schemas/inventory';
import { checkLocation } from './locations';
import { getStockProduct, lockBalances, postMovement, type StockProduct } from './stock-movements';
import { kitComponentsOf, stockFactsByProduct, withStockFacts } from '../catalog/product-facts';
import { postStockValue } from './stock-postings';
import type { OpenOrderQuantitiesSql } from './open-order-quantities';

/** The date a movement's entry is dated: occurred_at's UTC date, default today. */
const effectiveDate = (occurredAt: string | undefined) => (occurredAt === undefined ? todayUtc() : isoDateOf(occurredAt));

function referenceOf(input: { reference_type?: string; reference_id?: string; source_migration?: boolean }) {
  if (input.source_migration) {
    if (input.reference_type !== undefined && input.reference_type !== 'source_migration') {
      throw new ApiError('parameter_invalid', { param: 'reference_type', hint: 'A migrated row (source_migration true) has reference_type source_migration.' });
    }
    return { reference_type: 'source_migration', reference_id: input.reference_id ?? null };
  }
  if (input.reference_id !== undefined && input.reference_type === undefined) {
    throw new ApiError('parameter_missing', { param: 'reference_type', hint: 'Say what reference_id points at.' });
  }
  return { reference_type: input.reference_type ?? null, reference_id: input.reference_id ?? null };
}

export async function receiveStock(db: Db, ctx: PostingContext, input: ReceiptCreate, openQuantities: OpenOrderQuantitiesSql): Promise<InventoryTransaction> {
  const { entityId, events } = ctx;
  const product = await getStockProduct(db, entityId, input.product_id);
  await checkLocation(db, entityId, input.location_id);
  const unitCost = input.unit_cost ?? product.cost;
  if (unitCost === null || unitCost === undefined) {
    throw new ApiError('parameter_missing', { param: 'unit_cost', hint: 'The product has no cost; state the cost per unit received.' });
  }
  const balances = await lockBalances(db, entityId, [{ product_id: product.id, location_id: input.location_id }]);
  const posted = await postMovement(
    db,
    entityId,
    events,
    balances,
    {
      product,
      location_id: input.location_id,
      transaction_type: 'receive',
      quantity: input.quantity,
      unit_cost: unitCost,
      ...referenceOf(input),
      transaction_id: input.transaction_id,
      notes: input.notes,
      metadata: input.metadata,
      occurred_at: input.occurred_at,
    },
    openQuantities,
  );
  // The receipt's own cost in cents; when it settles negative stock, the layer (and the valuation)
  // takes less, and the settled units' cost goes to inventory_adjustments.
  await postStockValue(db, ctx, {
    entry_date: effectiveDate(input.occurred_at),
    date_param: 'occurred_at',
    memo: 'Stock received',
    source_type: 'inventory_receipt',
    source_id: posted.transaction.id,
    value_change: posted.value_change,
    counterparts: [{ system_key: 'opening_balance_equity', debit: layerValue(input.quantity, unitCost).negated() }],
  });
  return posted.transaction;
}

export async function adjustStock(db: Db, ctx: PostingContext, input: AdjustmentCreate, openQuantities: OpenOrderQuantitiesSql): Promise<InventoryTransaction> {
  const { entityId, events } = ctx;
  const product = await getStockProduct(db, entityId, input.product_id);
  await checkLocation(db, entityId, input.location_id);
  if (input.unit_cost !== undefined && amount(input.quantity).isNegative()) {
    throw new ApiError('parameter_invalid', { param: 'unit_cost', hint: 'Stock removed is costed by FIFO; unit_cost applies to positive adjustments only.' });
  }
  const balances = await lockBalances(db, entityId, [{ product_id: product.id, location_id: input.location_id }]);
  const posted = await postMovement(
    db,
    entityId,
    events,
    balances,
    {
      product,
      location_id: input.location_id,
      transaction_type: 'adjust',
      quantity: input.quantity,
      unit_cost: input.unit_cost,
      allow_negative: input.allow_negative,
      ...referenceOf(input),
      transaction_id: input.transaction_id,
      reason: input.reason,
      notes: input.notes,
      metadata: input.metadata,
      occurred_at: input.occurred_at,
    },
    openQuantities,
  );
  await postStockValue(db, ctx, {
    entry_date: effectiveDate(input.occurred_at),
    date_param: 'occurred_at',
    memo: `Stock adjusted: ${input.reason}`,
    source_type: 'inventory_adjustment',
    source_id: posted.transaction.id,
    value_change: posted.value_change,
    counterparts: [],
  });
  return posted.transaction;
}

export async function transferStock(db: Db, ctx: PostingContext, input: TransferCreate, openQuantities: OpenOrderQuantitiesSql) {
  const { entityId, events } = ctx;
  if (input.from_location_id === input.to_location_id) {
    throw new ApiError('parameter_invalid', { param: 'to_location_id', hint: 'A transfer moves stock between two different locations.' });
  }
  const product = await getStockProduct(db, entityId, input.product_id);
  await checkLocation(db, entityId, input.from_location_id, { param: 'from_location_id' });
  await checkLocation(db, entityId, input.to_location_id, { param: 'to_location_id' });
  const groupId = newId();
  const balances = await lockBalances(db, entityId, [
    { product_id: product.id, location_id: input.from_location_id },
    { product_id: product.id, location_id: input.to_location_id },
  ]);
  const common = {
    product,
    transaction_type: 'transfer' as const,
    group_id: groupId,
    reference_type: 'transfer',
    reference_id: groupId,
    notes: input.notes,
    metadata: input.metadata,
    occurred_at: input.occurred_at,
  };
  const out = await postMovement(
    db,
    entityId,
    events,
    balances,
    {
      ...common,
      location_id: input.from_location_id,
      quantity: amount(input.quantity).negated(),
    },
    openQuantities,
  );
  // The destination receives the very layers that left, so FIFO cost survives the move.
  const into = await postMovement(
    db,
    entityId,
    events,
    balances,
    {
      ...common,
      location_id: input.to_location_id,
      quantity: input.quantity,
      layers: out.draws.map((draw) => ({ quantity: draw.quantity, unit_cost: draw.unit_cost, value: draw.value })),
    },
    openQuantities,
  );
  await postStockValue(db, ctx, {
    entry_date: effectiveDate(input.occurred_at),
    date_param: 'occurred_at',
    memo: 'Stock transferred',
    source_type: 'inventory_transfer',
    source_id: groupId,
    value_change: out.value_change.plus(into.value_change),
    counterparts: [],
  });
  return {
    id: groupId,
    object: 'inventory_transfer' as const,
    product_id: product.id,
    from_location_id: input.from_location_id,
    to_location_id: input.to_location_id,
    quantity: toJsonNumber(input.quantity, QUANTITY_SCALE),
    total_cost: toJsonNumber(out.total_cost.negated(), COST_SCALE),
    transactions: [out.transaction, into.transaction],
  };
}

interface KitComponentStock {
  component_product_id: string;
  quantity_per_kit: string;
}

export async function buildKits(db: Db, ctx: PostingContext, kitId: string, input: KitBuildCreate, openQuantities: OpenOrderQuantitiesSql) {
  const { entityId, events } = ctx;
  const kitFacts = (await stockFactsByProduct(db, entityId, [kitId])).get(kitId.toLowerCase());
  const kit: StockProduct | undefined =
    kitFacts && (kitFacts.product_type === 'kit' || kitFacts.product_type === 'bundle') ? { id: kitId.toLowerCase(), ...kitFacts } : undefined;
  if (!kit) throw new ApiError('not_found', { param: 'id', hint: 'No such kit in this entity.' });
  if (kit.product_type === 'bundle') {
    throw new ApiError('product_not_stockable', { param: 'id', hint: 'A bundle is never built: selling it draws its components.' });
  }
  await checkLocation(db, entityId, input.location_id);
  const components: (KitComponentStock & StockProduct)[] = (
    await withStockFacts(
      db,
      entityId,
      (await kitComponentsOf(db, entityId, [kit.id])).map(({ component_product_id, quantity_per_kit }) => ({
        product_id: component_product_id,
        quantity_per_kit,
      })),
    )
  ).map(({ product_id, quantity_per_kit, ...facts }) => ({ component_product_id: product_id, quantity_per_kit, id: product_id, ...facts }));
  const groupId = newId();
  const balances = await lockBalances(db, entityId, [
    ...components.map((c) => ({ product_id: c.component_product_id, location_id: input.location_id })),
    { product_id: kit.id, location_id: input.location_id },
  ]);
  const common = {
    group_id: groupId,
    reference_type: 'kit_build',
    reference_id: groupId,
    notes: input.notes,
    metadata: input.metadata,
    occurred_at: input.occurred_at,
  };
  const transactions: InventoryTransaction[] = [];
  let cost = ZERO;
  let value = ZERO;
  let valueChange = ZERO;
  for (const component of components) {
    const drawn = await postMovement(
      db,
      entityId,
      events,
      balances,
      {
        ...common,
        product: component,
        location_id: input.location_id,
        transaction_type: 'build_consume',
        quantity: amount(component.quantity_per_kit).times(input.quantity).negated(),
      },
      openQuantities,
    );
    transactions.push(drawn.transaction);
    cost = cost.plus(drawn.total_cost.negated());
    value = value.plus(drawn.value_change.negated());
    valueChange = valueChange.plus(drawn.value_change);
  }
  const produced = await postMovement(
    db,
    entityId,
    events,
    balances,
    {
      ...common,
      product: kit,
      location_id: input.location_id,
      transaction_type: 'build_produce',
      quantity: input.quantity,
      total_cost: cost,
      total_value: value,
    },
    openQuantities,
  );
  transactions.push(produced.transaction);
  await postStockValue(db, ctx, {
    entry_date: effectiveDate(input.occurred_at),
    date_param: 'occurred_at',
    memo: 'Kits built',
    source_type: 'kit_build',
    source_id: groupId,
    value_change: valueChange.plus(produced.value_change),
    counterparts: [],
  });
  return {
    id: groupId,
    object: 'kit_build' as const,
    kit_product_id: kit.id,
    location_id: input.location_id,
    quantity: toJsonNumber(input.quantity, QUANTITY_SCALE),
    total_cost: toJsonNumber(cost, COST_SCALE),
    unit_cost: produced.transaction.unit_cost,
    transactions,
  };
}
