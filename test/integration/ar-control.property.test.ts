/**
 * The invariant of issue 5: after any sequence of operations, the sum of balance_due over the
 * open invoices equals the balance of the GL accounts receivable control account. Customer money
 * no invoice holds (sales-order prepayments, unapplied payments, credit-memo credit) sits in the
 * customer_credits liability, and that balance is checked against its sub-ledger too.
 *
 * fast-check generates sequences of document and cash operations; each sequence runs through the
 * HTTP API against a fresh entity, and the identity is checked after every step (a failing run
 * is shrunk to the shortest sequence that breaks it). Operations whose preconditions do not hold
 * at that point (no open invoice to pay, ...) are skipped, so any sequence is meaningful.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amount, sum } from '../../shared/money';
import { arIdentity } from '../support/cash-fixtures';
import type { ApiResponse } from '../support/client';
import { setupTestApi, type TestEntity } from '../support/harness';
import { orderAction, salesWorld } from '../support/worlds';

const api = setupTestApi();

type Op =
  | { kind: 'invoice'; quantity: number; price: number; confirm: boolean }
  | { kind: 'sales_order'; quantity: number; price: number }
  | { kind: 'pay'; pick: number; percent: number; method: 'check' | 'ach' }
  | { kind: 'multi_apply'; extra: number }
  | { kind: 'credit'; value: number }
  | { kind: 'apply_credit'; pick: number }
  | { kind: 'void_invoice'; pick: number }
  | { kind: 'void_payment'; pick: number }
  | { kind: 'refund'; pick: number; percent: number }
  | { kind: 'clear_ach'; pick: number }
  | { kind: 'fail_ach'; pick: number }
  | { kind: 'deposit' }
  | { kind: 'return'; pick: number }
  | { kind: 'convert'; pick: number }
  | { kind: 'memo_apply'; pick: number; percent: number }
  | { kind: 'memo_refund'; pick: number; percent: number };

const percent = fc.integer({ min: 1, max: 100 });
const pick = fc.nat(50);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('invoice' as const),
      quantity: fc.integer({ min: 1, max: 5 }),
      price: fc.integer({ min: 1, max: 9999 }),
      confirm: fc.boolean(),
    }),
    weight: 4,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('sales_order' as const), quantity: fc.integer({ min: 1, max: 5 }), price: fc.integer({ min: 1, max: 9999 }) }),
    weight: 1,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('pay' as const), pick, percent, method: fc.constantFrom('check' as const, 'check' as const, 'ach' as const) }),
    weight: 4,
  },
  { arbitrary: fc.record({ kind: fc.constant('multi_apply' as const), extra: fc.integer({ min: 0, max: 500 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('credit' as const), value: fc.integer({ min: 1, max: 5000 }) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('apply_credit' as const), pick }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('void_invoice' as const), pick }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('void_payment' as const), pick }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('refund' as const), pick, percent }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('clear_ach' as const), pick }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('fail_ach' as const), pick }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'deposit' as const }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('return' as const), pick }), weight: 1 },
  // Prepayments follow the invoice; credit-memo credit goes to another invoice or back to the customer.
  { arbitrary: fc.record({ kind: fc.constant('convert' as const), pick }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('memo_apply' as const), pick, percent }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('memo_refund' as const), pick, percent }), weight: 1 },
);

interface World {
  owner: TestEntity;
  accountId: string;
  productId: string;
  locationId: string;
  bankAccountId: string;
}

/** Main, Acme and a widget (10.00, cost 4.00) with 1000 in stock. */
async function setup(): Promise<World> {
  const { owner, account, widget, location } = await salesWorld(api, { gadget: false, widgetStock: 1000 });
  const banks = await api.get(owner, '/v1/gl-accounts', { limit: '100' });
  const bankAccountId = banks.data.find((a) => a.bank_account_id)?.bank_account_id ?? '';
  return { owner, accountId: account.id, productId: widget.id, locationId: location.id, bankAccountId };
}

const at = <T>(items: T[], index: number): T | undefined => (items.length ? items[index % items.length] : undefined);

async function openInvoices(world: World) {
  const page = await api.get(world.owner, '/v1/orders', { document_type: 'invoice', limit: '100' });
  return page.data.filter((o) => o.balance_due > 0 && o.order_status !== 'awaiting_ach_clearance');
}

async function payments(world: World, status?: string) {
  const page = await api.get(world.owner, '/v1/payments', { limit: '100' });
  return status ? page.data.filter((p) => p.status === status) : page.data;
}

/** Runs one operation if its preconditions hold; refusals the API is entitled to are fine. */
async function run(world: World, step: Op): Promise<void> {
  const key = world.owner.secret;
  const tolerate = async <T>(sent: Promise<ApiResponse<T>>) => {
    const response = await sent;
    if (response.status >= 500) throw new Error(`${response.status} ${response.text}`);
    return response;
  };
  switch (step.kind) {
    case 'invoice':
    case 'sales_order': {
      const document = await api.post(world.owner, '/v1/orders', {
        document_type: step.kind,
        account_id: world.accountId,
        location_id: world.locationId,
        lines: [{ product_id: world.productId, quantity: step.quantity, sell_rate: (step.price / 100).toFixed(2) }],
      });
      if (step.kind === 'sales_order' || step.confirm) await orderAction(api, world.owner, document.id, 'confirm');
      return;
    }
    case 'pay': {
      const page = await api.get(world.owner, '/v1/orders', { document_type: step.pick % 3 === 0 ? 'sales_order' : 'invoice', limit: '100' });
      const target = at(
        page.data.filter((o) => o.balance_due > 0 && o.order_status !== 'awaiting_ach_clearance'),
        step.pick,
      );
      if (!target) return;
      const value = amount(target.balance_due).times(step.percent).div(100).toDecimalPlaces(2, 1);
      if (value.lte(0)) return;
      const response = await tolerate(
        api.request('POST', `/v1/orders/${target.id}/payments`, { key, body: { amount: value.toFixed(2), payment_method: step.method } }),
      );
      // A sales order takes only what none of its invoices bills: the rest is collected on the invoices.
      if (response.status >= 400)
        expect({ document: target.document_type, code: response.error.code }).toEqual({ document: 'sales_order', code: 'order_not_payable' });
      return;
    }
    case 'multi_apply': {
      const open = await openInvoices(world);
      const total = sum(open.map((o) => o.balance_due)).plus(step.extra);
      if (total.lte(0)) return;
      await api.post(world.owner, '/v1/payments/multi-invoice-apply', {
        account_id: world.accountId,
        amount: total.toFixed(2),
        auto_apply: true,
        route_unapplied: 'credit',
      });
      return;
    }
    case 'credit':
      // A payment received with nothing applied: all of it is customer credit.
      await api.post(world.owner, '/v1/payments/multi-invoice-apply', {
        account_id: world.accountId,
        amount: (step.value / 100).toFixed(2),
        applications: [],
        route_unapplied: 'credit',
      });
      return;
    case 'apply_credit': {
      const unallocated = (await payments(world)).filter((p) => !p.order_id && p.applied_count === 0 && p.unapplied_amount > 0 && p.status === 'undeposited');
      const payment = at(unallocated, step.pick);
      const invoice = at(await openInvoices(world), step.pick);
      if (!payment || !invoice) return;
      const value = amount(payment.unapplied_amount).lt(invoice.balance_due) ? amount(payment.unapplied_amount) : amount(invoice.balance_due);
      await tolerate(
        api.request('POST', `/v1/payments/${payment.id}/apply`, {
          key,
          body: { account_id: world.accountId, applications: [{ order_id: invoice.id, amount_applied: value.toFixed(2) }] },
        }),
      );
      return;
    }
    case 'void_invoice': {
      const page = await api.get(world.owner, '/v1/orders', { document_type: 'invoice', limit: '100' });
      const target = at(
        page.data.filter((o) => o.order_status === 'confirmed' && o.amount_paid === 0),
        step.pick,
      );
      if (target) await tolerate(api.request('POST', `/v1/orders/${target.id}/void`, { key }));
      return;
    }
    case 'void_payment': {
      const target = at(await payments(world, 'undeposited'), step.pick);
      if (target) await tolerate(api.request('POST', `/v1/payments/${target.id}/void`, { key }));
      return;
    }
    case 'refund': {
      const target = at(
        (await payments(world)).filter((p) => ['undeposited', 'deposited'].includes(p.status) && p.amount > (p.amount_refunded ?? 0)),
        step.pick,
      );
      if (!target) return;
      const value = amount(target.amount)
        .minus(target.amount_refunded ?? 0)
        .times(step.percent)
        .div(100)
        .toDecimalPlaces(2, 1);
      if (value.gt(0)) await tolerate(api.request('POST', `/v1/payments/${target.id}/refunds`, { key, body: { amount: value.toFixed(2) } }));
      return;
    }
    case 'clear_ach':
    case 'fail_ach': {
      const target = at(await payments(world, 'pending'), step.pick);
      if (target) await tolerate(api.request('POST', `/v1/payments/${target.id}/${step.kind === 'clear_ach' ? 'clear' : 'fail'}`, { key }));
      return;
    }
    case 'deposit': {
      const receipts = await payments(world, 'undeposited');
      if (receipts.length && world.bankAccountId) {
        await tolerate(
          api.request('POST', '/v1/deposits', {
            key,
            body: {
              bank_account_id: world.bankAccountId,
              deposit_date: new Date().toISOString().slice(0, 10),
              payment_ids: receipts.map((p) => p.id),
              memo: 'bank run',
            },
          }),
        );
      }
      return;
    }
    case 'return': {
      const page = await api.get(world.owner, '/v1/orders', { document_type: 'invoice', limit: '100', 'expand[]': 'data.lines' });
      const source = at(
        page.data.filter((o) => ['confirmed', 'fulfilled', 'partially_fulfilled'].includes(o.order_status)),
        step.pick,
      );
      if (!source) return;
      const lines = source.lines!; // expanded
      // A directly created invoice ships its own goods; what shipped can come back.
      if (lines[0].quantity_fulfilled === 0) {
        await tolerate(
          api.request('POST', `/v1/orders/${source.id}/fulfillments`, {
            key,
            body: { lines: [{ line_id: lines[0].id, quantity: lines[0].quantity }] },
          }),
        );
      }
      const created = await tolerate(
        api.request('POST', `/v1/orders/${source.id}/returns`, { key, body: { lines: [{ line_id: lines[0].id, quantity: 1, restock: false }] } }),
      );
      if (created.status < 300) await tolerate(api.request('POST', `/v1/orders/${created.body.id}/confirm`, { key }));
      return;
    }
    case 'convert': {
      // A sales order (paid or not) invoiced and the invoice posted: its deposit follows the invoice.
      const page = await api.get(world.owner, '/v1/orders', { document_type: 'sales_order', limit: '100' });
      const source = at(
        page.data.filter((o) => ['confirmed', 'partially_fulfilled', 'fulfilled'].includes(o.order_status)),
        step.pick,
      );
      if (!source) return;
      const converted = await tolerate(api.request('POST', `/v1/orders/${source.id}/convert`, { key }));
      if (converted.status < 300) await tolerate(api.request('POST', `/v1/orders/${converted.body.id}/confirm`, { key }));
      return;
    }
    case 'memo_apply':
    case 'memo_refund': {
      const memos = (await api.get(world.owner, '/v1/orders', { document_type: 'return', limit: '100' })).data.filter((o) => o.balance_due < 0);
      const memo = at(memos, step.pick);
      if (!memo) return;
      const credit = amount(memo.balance_due).negated();
      if (step.kind === 'memo_refund') {
        const value = credit.times(step.percent).div(100).toDecimalPlaces(2, 1);
        if (value.gt(0) && world.bankAccountId) {
          await tolerate(
            api.request('POST', `/v1/orders/${memo.id}/refund-credit`, { key, body: { bank_account_id: world.bankAccountId, amount: value.toFixed(2) } }),
          );
        }
        return;
      }
      const invoice = at(await openInvoices(world), step.pick);
      if (!invoice) return;
      const most = credit.lt(invoice.balance_due) ? credit : amount(invoice.balance_due);
      const value = most.times(step.percent).div(100).toDecimalPlaces(2, 1);
      if (value.gt(0))
        await tolerate(api.request('POST', `/v1/orders/${memo.id}/apply-credit`, { key, body: { invoice_id: invoice.id, amount: value.toFixed(2) } }));
      return;
    }
  }
}

describe('AR control', () => {
  it('Σ balance_due over open invoices equals the GL accounts receivable balance after any sequence of operations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (generated) => {
        const world = await setup();
        // Every sequence starts from two posted invoices and a confirmed sales order, so the
        // cash operations have documents to act on from the first step.
        const opening: Op[] = [
          { kind: 'invoice', quantity: 2, price: 1999, confirm: true },
          { kind: 'invoice', quantity: 1, price: 4550, confirm: true },
          { kind: 'sales_order', quantity: 3, price: 1250 },
        ];
        for (const [index, step] of [...opening, ...generated].entries()) {
          if (process.env.AR_PROPERTY_TRACE) console.log(JSON.stringify(step));
          await run(world, step);
          const identity = await arIdentity(world.owner);
          expect(identity.gl, `AR after step ${index + 1} ${JSON.stringify(step)}`).toBe(identity.openInvoices);
          // Its twin: customer deposits and credits hold exactly the customer money no invoice holds.
          expect(identity.creditsGl, `customer_credits after step ${index + 1} ${JSON.stringify(step)}`).toBe(identity.creditsSubledger);
          if (process.env.AR_PROPERTY_TRACE) console.log(JSON.stringify(identity));
        }
      }),
      { numRuns: Number(process.env.AR_PROPERTY_RUNS ?? 12), endOnFailure: true },
    );
  }, 600_000);
});
