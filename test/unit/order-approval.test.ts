import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { overThreshold, routingRule, ruleMatches, type ApprovalRuleLike } from '../../shared/orders/approval-routing';
import { amount } from '../../shared/money';

const CUSTOMER = 'c0000000-0000-4000-8000-000000000001';
const OTHER = 'c0000000-0000-4000-8000-000000000002';
const CHANNEL = 'd0000000-0000-4000-8000-000000000001';
let n = 0;
const rule = (over: Partial<ApprovalRuleLike>): ApprovalRuleLike => ({
  id: `r${n++}`,
  account_id: null,
  sales_channel_id: null,
  threshold_amount: '100.00',
  is_active: true,
  ...over,
});
const order = (total: string, over: { account_id?: string | null; sales_channel_id?: string | null } = {}) => ({
  account_id: CUSTOMER,
  sales_channel_id: CHANNEL,
  order_total: total,
  ...over,
});

describe('order approval routing', () => {
  it('routes an order strictly over the threshold; exactly the threshold goes through', () => {
    const perCustomer = rule({ account_id: CUSTOMER });
    expect(routingRule(order('100.01'), [perCustomer])).toBe(perCustomer);
    expect(routingRule(order('100.00'), [perCustomer])).toBeNull();
    expect(routingRule(order('99.99'), [perCustomer])).toBeNull();
  });

  it('matches per customer, per channel, or both (that customer in that channel); ignores inactive rules', () => {
    const both = rule({ account_id: CUSTOMER, sales_channel_id: CHANNEL });
    expect(ruleMatches(rule({ account_id: CUSTOMER }), { account_id: CUSTOMER, sales_channel_id: null })).toBe(true);
    expect(ruleMatches(rule({ sales_channel_id: CHANNEL }), { account_id: OTHER, sales_channel_id: CHANNEL })).toBe(true);
    expect(ruleMatches(both, { account_id: CUSTOMER, sales_channel_id: null })).toBe(false);
    expect(ruleMatches(both, { account_id: OTHER, sales_channel_id: CHANNEL })).toBe(false);
    expect(ruleMatches(both, { account_id: CUSTOMER, sales_channel_id: CHANNEL })).toBe(true);
    expect(ruleMatches(rule({}), { account_id: CUSTOMER, sales_channel_id: CHANNEL })).toBe(false);
    expect(routingRule(order('500'), [rule({ account_id: CUSTOMER, is_active: false })])).toBeNull();
  });

  it('purchase order rules route purchase orders only: a vendor rule matches that vendor, a rule without vendor every purchase order; the vendor rule is the more specific', () => {
    const VENDOR = 'e0000000-0000-4000-8000-000000000001';
    const po = (total: string, vendorId: string) => ({
      document_type: 'purchase_order' as const,
      vendor_id: vendorId,
      account_id: null,
      sales_channel_id: null,
      order_total: total,
    });
    const everyPo = rule({ document_type: 'purchase_order', threshold_amount: '100.00' });
    const perVendor = rule({ document_type: 'purchase_order', vendor_id: VENDOR, threshold_amount: '100.00' });
    expect(ruleMatches(everyPo, po('1', OTHER))).toBe(true);
    expect(ruleMatches(perVendor, po('1', OTHER))).toBe(false);
    expect(ruleMatches(perVendor, po('1', VENDOR))).toBe(true);
    // Never across document types: a customer rule does not route a purchase order, nor a purchase order rule a sales order.
    expect(ruleMatches(rule({ account_id: CUSTOMER }), { ...po('1', VENDOR), account_id: CUSTOMER })).toBe(false);
    expect(ruleMatches(everyPo, { account_id: CUSTOMER, sales_channel_id: CHANNEL })).toBe(false);
    expect(routingRule(po('150', VENDOR), [everyPo, perVendor])).toBe(perVendor);
    expect(routingRule(po('150', OTHER), [everyPo, perVendor])).toBe(everyPo);
    expect(routingRule(po('100', VENDOR), [everyPo, perVendor])).toBeNull();
  });

  it('picks the highest threshold exceeded, then the more specific rule, then the oldest', () => {
    const low = rule({ account_id: CUSTOMER, threshold_amount: '100' });
    const high = rule({ sales_channel_id: CHANNEL, threshold_amount: '1000' });
    expect(routingRule(order('5000'), [low, high])).toBe(high);
    expect(routingRule(order('500'), [low, high])).toBe(low);
    const channel = rule({ sales_channel_id: CHANNEL, threshold_amount: '100' });
    const customer = rule({ account_id: CUSTOMER, threshold_amount: '100' });
    const both = rule({ account_id: CUSTOMER, sales_channel_id: CHANNEL, threshold_amount: '100' });
    expect(routingRule(order('200'), [channel, customer])).toBe(customer);
    expect(routingRule(order('200'), [channel, customer, both])).toBe(both);
    const older = rule({ account_id: CUSTOMER });
    const newer = rule({ account_id: CUSTOMER });
    expect(routingRule(order('200'), [older, newer])).toBe(older);
  });

  const cents = fc.bigInt({ min: 0n, max: 10_000_000_00n }).map((c) => amount(c.toString()).div(100).toFixed(2));
  const anyRule = fc.record({
    id: fc.uuid(),
    account_id: fc.constantFrom(null, CUSTOMER, OTHER),
    sales_channel_id: fc.constantFrom(null, CHANNEL),
    threshold_amount: cents,
    is_active: fc.boolean(),
  });

  it('property: the chosen rule is active, matches, is exceeded and no other such rule has a higher threshold', () => {
    fc.assert(
      fc.property(cents, fc.array(anyRule, { maxLength: 8 }), (total, rules) => {
        const o = order(total);
        const chosen = routingRule(o, rules);
        const candidates = rules.filter((r) => r.is_active && ruleMatches(r, o) && overThreshold(total, r.threshold_amount));
        if (candidates.length === 0) {
          expect(chosen).toBeNull();
          return;
        }
        expect(candidates).toContain(chosen);
        for (const other of candidates) expect(amount(other.threshold_amount).lte(chosen!.threshold_amount)).toBe(true);
      }),
    );
  });

  it('property: over the threshold is exact decimal comparison (one cent decides)', () => {
    fc.assert(
      fc.property(cents, (threshold) => {
        expect(overThreshold(threshold, threshold)).toBe(false);
        expect(overThreshold(amount(threshold).plus('0.01').toFixed(2), threshold)).toBe(true);
      }),
    );
  });
});
