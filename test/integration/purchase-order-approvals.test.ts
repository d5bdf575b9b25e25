/**
 * Purchase-order approval: purchase order approval rules (by vendor, or every purchase order),
 * submit, approve and reject as for sales orders; a purchase order awaiting approval has its
 * lines locked with reason po_pending_approval_edit_locked, and sending an unapproved purchase
 * order that needs approval is refused with po_approval_required.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/ids';
import type { BodyFor } from '../support/client';
import { eventTypesOf, setupTestApi } from '../support/harness';
import { userWithKey } from '../support/ledger-helpers';
import { salesWorld, type OrderLineBody } from '../support/worlds';

const api = setupTestApi();
const RULES = '/v1/orders/approval-rules';
const LOCKED = { allowed: false, reason: 'po_pending_approval_edit_locked' };

/** An entity with two vendors, a widget, an approver (no permissions) and purchase order drafts. */
async function poApprovalWorld() {
  const w = await salesWorld(api, { account: false, vendor: { name: 'Acme Supply', email: 'orders@acme.example' }, gadget: false });
  const otherVendor = await api.post(w.owner, '/v1/vendors', { name: 'Other Supply', email: 'orders@other.example' });
  const approver = await userWithKey(w.owner, []);
  return {
    ...w,
    vendor: w.vendor,
    otherVendor,
    approver,
    /** A draft purchase order of `quantity` widgets at 15.00 (order_total quantity × 15). */
    purchaseOrder: (quantity: number, vendorId: string = w.vendor.id, lines: OrderLineBody[] = [{ product_id: w.widget.id, quantity, sell_rate: 15 }]) =>
      api.post(w.owner, '/v1/orders', { document_type: 'purchase_order', account_id: vendorId, location_id: w.location.id, lines }),
    rule: (body: Partial<BodyFor<'POST', typeof RULES>>) =>
      api.post(w.owner, RULES, { document_type: 'purchase_order', threshold_amount: 100, approver_user_id: approver.userId, ...body }),
    submit: (id: string) => api.post(w.owner, `/v1/orders/${id}/submit`, undefined, 200),
  };
}

describe('purchase order approval rules: thresholds and approvers as for sales orders', () => {
  it('a purchase order rule names a vendor or no vendor (every purchase order), never a customer or a channel; vendor_id on a sales order rule is refused', async () => {
    const w = await poApprovalWorld();
    const everyPo = await w.rule({ threshold_amount: '500.00' });
    expect(everyPo).toMatchObject({
      object: 'order_approval_rule',
      document_type: 'purchase_order',
      vendor_id: null,
      account_id: null,
      sales_channel_id: null,
      threshold_amount: 500,
      approver_user_id: w.approver.userId,
    });
    const perVendor = await w.rule({ vendor_id: w.vendor.id });
    expect(perVendor).toMatchObject({ document_type: 'purchase_order', vendor_id: w.vendor.id, threshold_amount: 100 });
    const customer = await api.post(w.owner, '/v1/accounts', { name: 'A customer' });
    const salesRule = await api.post(w.owner, RULES, { account_id: customer.id, threshold_amount: 10, approver_user_id: w.approver.userId });
    expect(salesRule).toMatchObject({ document_type: 'sales_order', vendor_id: null, account_id: customer.id });

    const body = { document_type: 'purchase_order' as const, threshold_amount: 1, approver_user_id: w.approver.userId };
    await api.expectRefusal(w.owner, 'POST', RULES, { ...body, account_id: customer.id }, 400, 'parameter_invalid', 'account_id');
    await api.expectRefusal(w.owner, 'POST', RULES, { ...body, sales_channel_id: newId() }, 400, 'parameter_invalid', 'sales_channel_id');
    await api.expectRefusal(w.owner, 'POST', RULES, { ...body, vendor_id: newId() }, 404, 'not_found', 'vendor_id');
    await api.expectRefusal(
      w.owner,
      'POST',
      RULES,
      { account_id: customer.id, vendor_id: w.vendor.id, threshold_amount: 1, approver_user_id: w.approver.userId },
      400,
      'parameter_invalid',
      'vendor_id',
    );
    await api.expectRefusal(w.owner, 'PATCH', `${RULES}/${perVendor.id}`, { account_id: customer.id }, 400, 'parameter_invalid', 'account_id');
    const moved = await api.patch(w.owner, `${RULES}/${perVendor.id}`, { vendor_id: w.otherVendor.id, threshold_amount: 250 });
    expect(moved).toMatchObject({ vendor_id: w.otherVendor.id, threshold_amount: 250 });

    const purchaseRules = await api.request('GET', RULES, { key: w.owner.secret, query: { document_type: 'purchase_order' } });
    expect(purchaseRules.body.data.map((r) => r.id)).toEqual([perVendor.id, everyPo.id]);
    const ofVendor = await api.request('GET', RULES, { key: w.owner.secret, query: { vendor_id: w.otherVendor.id } });
    expect(ofVendor.body.data.map((r) => r.id)).toEqual([perVendor.id]);
  });
});

describe('submit, approve, reject', () => {
  it('submitting a purchase order over the threshold holds it for approval: on_hold, hold_type approval, the rule and approver recorded', async () => {
    const w = await poApprovalWorld();
    const rule = await w.rule({ vendor_id: w.vendor.id, threshold_amount: 100 });
    const po = await w.purchaseOrder(10);
    expect(po.order_total).toBe(150);
    const held = await w.submit(po.id);
    expect(held).toMatchObject({
      order_status: 'on_hold',
      is_on_hold: true,
      hold_type: 'approval',
      approval_rule_id: rule.id,
      approver_user_id: w.approver.userId,
      approved_by: null,
    });
    expect(Date.parse(held.approval_requested_at!)).toBeGreaterThan(Date.now() - 60_000);
    expect(await eventTypesOf(w.owner, po.id)).toEqual(['order.created', 'order.approval_requested']);
    // Once held, submitting again is a transition error; a held purchase order is neither received nor released.
    const again = await api.expectRefusal(w.owner, 'POST', `/v1/orders/${po.id}/submit`, undefined, 409, 'order_invalid_transition', 'id');
    expect(again).toMatchObject({ current_status: 'on_hold', allowed_actions: ['cancel', 'approve', 'reject'] });
    const release = await api.expectRefusal(w.owner, 'POST', `/v1/orders/${po.id}/release`, undefined, 409, 'order_invalid_transition', 'id');
    expect(release).toMatchObject({ reason: 'approval_pending' });
  });

  it('while a PO awaits approval its lines are locked with reason po_pending_approval_edit_locked', async () => {
    const w = await poApprovalWorld();
    await w.rule({ threshold_amount: 100 });
    const po = await w.purchaseOrder(10);
    expect(po.lines[0].line_editability).toMatchObject({ qty: { allowed: true, reason: null }, delete: { allowed: true, reason: null } });
    await w.submit(po.id);
    const held = await w.getOrder(po.id);
    expect(held.lines[0].line_editability).toEqual({
      qty: { ...LOCKED, floor: 0 },
      unit_cost: { ...LOCKED, warn_received_qty: null },
      delete: LOCKED,
      notes: LOCKED,
    });
    const item = `/v1/orders/${po.id}/items/${po.lines[0].id}` as const;
    const edit = await api.expectRefusal(w.owner, 'PATCH', item, { quantity: 2 }, 409, 'order_locked', 'id');
    expect(edit).toMatchObject({ current_status: 'on_hold', reason: 'po_pending_approval_edit_locked', suggested_action: 'reject_order', overridable: false });
    const overridden = await api.expectRefusal(w.owner, 'PATCH', item, { notes: 'rush', override: true, override_reason: 'Urgent' }, 409, 'order_locked', 'id');
    expect(overridden).toMatchObject({ reason: 'po_pending_approval_edit_locked' });
    const removal = await api.expectRefusal(w.owner, 'DELETE', item, undefined, 409, 'order_locked', 'id');
    expect(removal).toMatchObject({ reason: 'po_pending_approval_edit_locked' });
    const addition = await api.expectRefusal(w.owner, 'POST', `/v1/orders/${po.id}/lines`, { product_id: w.widget.id, quantity: 1 }, 409, 'order_locked', 'id');
    expect(addition).toMatchObject({ reason: 'po_pending_approval_edit_locked' });
    // The header's amounts are frozen too; notes still change.
    await api.expectRefusal(w.owner, 'PATCH', `/v1/orders/${po.id}`, { shipping_total: 5 }, 409, 'order_locked', 'id');
    expect(await api.patch(w.owner, `/v1/orders/${po.id}`, { notes: 'Waiting for the approver' })).toMatchObject({
      notes: 'Waiting for the approver',
      order_total: 150,
    });
    expect((await w.getOrder(po.id)).lines[0]).toMatchObject({ quantity: 10, sell_rate: 15 });
  });

  it('sending an unapproved PO that needs approval is refused with po_approval_required; once approved it is confirmed, editable and sent', async () => {
    const w = await poApprovalWorld();
    const rule = await w.rule({ threshold_amount: 100 });
    const po = await w.purchaseOrder(10);
    const refused = await api.expectRefusal(w.owner, 'POST', `/v1/orders/${po.id}/send`, undefined, 409, 'po_approval_required', 'id');
    expect(refused).toMatchObject({ current_status: 'draft', order_total: 150, approval_rule_id: rule.id, threshold_amount: 100 });
    await w.submit(po.id);
    // Awaiting approval it is not sendable at all.
    await api.expectRefusal(w.owner, 'POST', `/v1/orders/${po.id}/send`, undefined, 409, 'order_invalid_transition', 'id');

    const approved = await api.post(w.approver.secret, `/v1/orders/${po.id}/approve`, undefined, 200);
    expect(approved).toMatchObject({ order_status: 'confirmed', is_on_hold: false, hold_type: null, approved_by: w.approver.userId });
    expect(approved.lines[0].line_editability.qty).toMatchObject({ allowed: true, reason: null });
    const sent = await api.post(w.owner, `/v1/orders/${po.id}/send`, undefined, 200);
    expect(sent).toMatchObject({ order_status: 'confirmed', sent_to: 'orders@acme.example' });
    expect(await eventTypesOf(w.owner, po.id)).toEqual(['order.created', 'order.approval_requested', 'order.approved', 'purchase_order.sent']);
  });

  it('reject sends it back to draft with the reason: editable again, and still refused at send until approved', async () => {
    const w = await poApprovalWorld();
    await w.rule({ threshold_amount: 100 });
    const po = await w.purchaseOrder(10);
    await w.submit(po.id);
    const outsider = await userWithKey(w.owner, []);
    const forbidden = await api.raw('POST', `/v1/orders/${po.id}/reject`, { key: outsider.secret, body: { reason: 'No' } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.error).toMatchObject({ code: 'insufficient_permissions', permission: 'orders.approve' });

    const rejected = await api.post(w.approver.secret, `/v1/orders/${po.id}/reject`, { reason: 'Too many widgets' }, 200);
    expect(rejected).toMatchObject({
      order_status: 'draft',
      is_on_hold: false,
      hold_type: null,
      rejected_by: w.approver.userId,
      rejection_reason: 'Too many widgets',
    });
    expect(rejected.lines[0].line_editability.qty).toMatchObject({ allowed: true, reason: null });
    await api.expectRefusal(w.owner, 'POST', `/v1/orders/${po.id}/send`, undefined, 409, 'po_approval_required', 'id');
    // Cut down under the threshold, it needs no approval and goes out.
    await api.patch(w.owner, `/v1/orders/${po.id}/items/${po.lines[0].id}`, { quantity: 6 });
    await api.expectRefusal(w.owner, 'POST', `/v1/orders/${po.id}/submit`, undefined, 409, 'order_invalid_transition', 'id');
    expect(await api.post(w.owner, `/v1/orders/${po.id}/send`, undefined, 200)).toMatchObject({ order_status: 'confirmed', order_total: 90 });
  });

  it('an approval covers the total it saw: a PO that grew past it needs approval again before it is sent', async () => {
    const w = await poApprovalWorld();
    await w.rule({ threshold_amount: 100 });
    const po = await w.purchaseOrder(10);
    await w.submit(po.id);
    await api.post(w.approver.secret, `/v1/orders/${po.id}/approve`, undefined, 200);
    await api.post(w.owner, `/v1/orders/${po.id}/send`, undefined, 200);
    // Lowering it stays covered; raising it past 150 does not.
    await api.patch(w.owner, `/v1/orders/${po.id}/items/${po.lines[0].id}`, { quantity: 8 });
    await api.post(w.owner, `/v1/orders/${po.id}/send`, undefined, 200);
    await api.patch(w.owner, `/v1/orders/${po.id}/items/${po.lines[0].id}`, { quantity: 20 });
    const refused = await api.expectRefusal(w.owner, 'POST', `/v1/orders/${po.id}/send`, undefined, 409, 'po_approval_required', 'id');
    expect(refused).toMatchObject({ current_status: 'confirmed', order_total: 300 });
    const held = await w.submit(po.id);
    expect(held).toMatchObject({ order_status: 'on_hold', hold_type: 'approval', approved_by: null });
    await api.post(w.approver.secret, `/v1/orders/${po.id}/approve`, undefined, 200);
    expect(await api.post(w.owner, `/v1/orders/${po.id}/send`, undefined, 200)).toMatchObject({ order_status: 'confirmed', order_total: 300 });
  });

  it("at or under every threshold no approval is needed (submit is 409 approval_not_required, send goes through); the vendor's rule routes before the every-PO rule", async () => {
    const w = await poApprovalWorld();
    const vendorApprover = await userWithKey(w.owner, []);
    await w.rule({ threshold_amount: 1000 });
    const vendorRule = await w.rule({ vendor_id: w.vendor.id, threshold_amount: 100, approver_user_id: vendorApprover.userId });
    // Exactly the threshold: no approval (strictly over, as for sales orders).
    const atThreshold = await w.purchaseOrder(0, w.vendor.id, [{ product_id: w.widget.id, quantity: 4, sell_rate: 25 }]);
    expect(atThreshold.order_total).toBe(100);
    const notRequired = await api.expectRefusal(w.owner, 'POST', `/v1/orders/${atThreshold.id}/submit`, undefined, 409, 'order_invalid_transition', 'id');
    expect(notRequired).toMatchObject({ reason: 'approval_not_required' });
    expect(await api.post(w.owner, `/v1/orders/${atThreshold.id}/send`, undefined, 200)).toMatchObject({ order_status: 'confirmed' });

    const fromOther = await w.purchaseOrder(10, w.otherVendor.id);
    expect(await api.post(w.owner, `/v1/orders/${fromOther.id}/send`, undefined, 200)).toMatchObject({ order_status: 'confirmed' });
    const fromVendor = await w.purchaseOrder(10);
    expect(await w.submit(fromVendor.id)).toMatchObject({ approval_rule_id: vendorRule.id, approver_user_id: vendorApprover.userId });
    // Only that approver (or a user with orders.approve) decides.
    const wrong = await api.raw('POST', `/v1/orders/${fromVendor.id}/approve`, { key: w.approver.secret });
    expect(wrong.status).toBe(403);
    expect(wrong.error.code).toBe('insufficient_permissions');
    expect(await api.post(vendorApprover.secret, `/v1/orders/${fromVendor.id}/approve`, undefined, 200)).toMatchObject({ order_status: 'confirmed' });
  });

  it('confirming a draft PO over a threshold holds it for approval as submit does; submit is for purchase orders only', async () => {
    const w = await poApprovalWorld();
    const rule = await w.rule({ threshold_amount: 100 });
    const po = await w.purchaseOrder(10);
    const held = await api.post(w.owner, `/v1/orders/${po.id}/confirm`, undefined, 200);
    expect(held).toMatchObject({ order_status: 'on_hold', hold_type: 'approval', approval_rule_id: rule.id });
    // Inactive rules route nothing.
    await api.patch(w.owner, `${RULES}/${rule.id}`, { is_active: false });
    const small = await w.purchaseOrder(10);
    expect(await api.post(w.owner, `/v1/orders/${small.id}/confirm`, undefined, 200)).toMatchObject({ order_status: 'confirmed' });
    const customer = await api.post(w.owner, '/v1/accounts', { name: 'Buyer' });
    const so = await api.post(w.owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: customer.id,
      lines: [{ product_id: w.widget.id, quantity: 1 }],
    });
    const notPo = await api.expectRefusal(w.owner, 'POST', `/v1/orders/${so.id}/submit`, undefined, 409, 'order_invalid_transition', 'id');
    expect(notPo).toMatchObject({ document_type: 'sales_order', reason: 'not_allowed' });
  });
});
