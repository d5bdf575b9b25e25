/** Order approval rules (E9) and the approval routing of sales orders: hold on confirm, approve, reject. */
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/ids';
import { unchecked, type BodyFor } from '../support/client';
import { eventTypesOf, setupTestApi } from '../support/harness';
import { userWithKey } from '../support/ledger-helpers';
import { orderAction, salesWorld, type OrderBody } from '../support/worlds';

const api = setupTestApi();
const RULES = '/v1/orders/approval-rules';
const CHANNEL = '00000000-0000-4000-8000-00000000c0a1';
const OTHER_CHANNEL = '00000000-0000-4000-8000-00000000c0a2';

const WORLD = { other: 'Other', gadget: false } as const;

/** The sales world, an approver (a user without permissions), drafts of widgets and approval rules. */
async function approvalWorld() {
  const w = await salesWorld(api, WORLD);
  const approver = await userWithKey(w.owner, []);
  return {
    ...w,
    customer: w.account,
    approver,
    /** A draft sales order of `quantity` widgets at 10.00 each. */
    order: (quantity: number, extra: Partial<OrderBody> = {}) => w.order('sales_order', [{ product_id: w.widget.id, quantity }], extra),
    rule: (body: Partial<BodyFor<'POST', typeof RULES>>) => api.post(w.owner, RULES, { threshold_amount: 100, approver_user_id: approver.userId, ...body }),
  };
}

describe('approval rules (E9)', () => {
  it('creates per-customer, per-channel and customer-in-channel rules; gets, lists with filters and pages, updates and deletes them', async () => {
    const { owner, customer, approver, rule } = await approvalWorld();
    const perCustomer = await rule({ account_id: customer.id, threshold_amount: '2500.50' });
    expect(perCustomer).toMatchObject({
      object: 'order_approval_rule',
      entity_id: owner.entity.id,
      account_id: customer.id,
      sales_channel_id: null,
      threshold_amount: 2500.5,
      approver_user_id: approver.userId,
      is_active: true,
      created_by_user_id: owner.owner.id,
    });
    const perChannel = await rule({ sales_channel_id: CHANNEL, is_active: false });
    expect(perChannel).toMatchObject({ account_id: null, sales_channel_id: CHANNEL, threshold_amount: 100, is_active: false });
    const both = await rule({ account_id: customer.id, sales_channel_id: CHANNEL });
    expect(both).toMatchObject({ account_id: customer.id, sales_channel_id: CHANNEL });

    // The static segment is never read as an order id.
    const list = await api.get(owner, RULES);
    expect(list).toMatchObject({ object: 'list', has_more: false });
    expect(list.data.map((r) => r.id)).toEqual([both.id, perChannel.id, perCustomer.id]);
    const got = await api.request('GET', `${RULES}/${perCustomer.id}`, { key: owner.secret });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(perCustomer);
    const byAccount = await api.request('GET', RULES, { key: owner.secret, query: { account_id: customer.id } });
    expect(byAccount.body.data.map((r) => r.id)).toEqual([both.id, perCustomer.id]);
    const byChannel = await api.request('GET', RULES, { key: owner.secret, query: { sales_channel_id: CHANNEL, is_active: 'true' } });
    expect(byChannel.body.data.map((r) => r.id)).toEqual([both.id]);
    const inactive = await api.request('GET', RULES, { key: owner.secret, query: { is_active: 'false' } });
    expect(inactive.body.data.map((r) => r.id)).toEqual([perChannel.id]);
    const page1 = await api.request('GET', RULES, { key: owner.secret, query: { limit: '2' } });
    expect(page1.body).toMatchObject({ has_more: true, next_cursor: perChannel.id });
    const page2 = await api.request('GET', RULES, { key: owner.secret, query: { limit: '2', starting_after: page1.body.next_cursor! } });
    expect(page2.body.data.map((r) => r.id)).toEqual([perCustomer.id]);

    // PATCH with If-Match: stale → 412, fresh → applied, event with previous_attributes.
    const stale = await api.request('PATCH', `${RULES}/${perCustomer.id}`, {
      key: owner.secret,
      headers: { 'If-Match': '"stale"' },
      body: { threshold_amount: 10 },
    });
    expect(stale.status).toBe(412);
    const updated = await api.request('PATCH', `${RULES}/${perCustomer.id}`, {
      key: owner.secret,
      headers: { 'If-Match': got.headers.get('etag')! },
      body: { threshold_amount: 10, is_active: false, sales_channel_id: OTHER_CHANNEL },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ threshold_amount: 10, is_active: false, sales_channel_id: OTHER_CHANNEL, account_id: customer.id });
    const cleared = await api.patch(owner, `${RULES}/${perCustomer.id}`, { account_id: null });
    expect(cleared).toMatchObject({ account_id: null, sales_channel_id: OTHER_CHANNEL });

    const deleted = await api.delete(owner, `${RULES}/${perChannel.id}`);
    expect(deleted).toEqual({ id: perChannel.id, object: 'order_approval_rule', livemode: false, deleted: true });
    expect((await api.request('GET', `${RULES}/${perChannel.id}`, { key: owner.secret })).status).toBe(404);
    expect(await eventTypesOf(owner, perCustomer.id)).toEqual(['order_approval_rule.created', 'order_approval_rule.updated', 'order_approval_rule.updated']);
    expect(await eventTypesOf(owner, perChannel.id)).toEqual(['order_approval_rule.created', 'order_approval_rule.deleted']);
  });

  it('refuses bad rules with a precise code and param, writing nothing', async () => {
    const { owner, customer, approver } = await approvalWorld();
    const stranger = await api.newEntity();
    const strangerAccount = await api.post(stranger, '/v1/accounts', { name: 'Theirs' });
    const vendor = await api.post(owner, '/v1/vendors', { name: 'Supplier' });
    const valid = { account_id: customer.id, threshold_amount: 100, approver_user_id: approver.userId };
    const refuse = (body: unknown, status: number, code: string, param: string) =>
      api.expectRefusal(owner, 'POST', RULES, unchecked(body), status, code, param);

    await refuse({ threshold_amount: 100, approver_user_id: approver.userId }, 400, 'parameter_missing', 'account_id');
    await refuse(
      { account_id: null, sales_channel_id: null, threshold_amount: 100, approver_user_id: approver.userId },
      400,
      'parameter_missing',
      'account_id',
    );
    await refuse({ ...valid, threshold_amount: undefined }, 400, 'parameter_missing', 'threshold_amount');
    await refuse({ ...valid, threshold_amount: -1 }, 400, 'parameter_invalid', 'threshold_amount');
    await refuse({ ...valid, threshold_amount: '10.001' }, 400, 'parameter_invalid', 'threshold_amount');
    await refuse({ ...valid, approver_user_id: undefined }, 400, 'parameter_missing', 'approver_user_id');
    await refuse({ ...valid, approver_user_id: 'not-a-uuid' }, 400, 'parameter_invalid', 'approver_user_id');
    await refuse({ ...valid, sales_channel_id: 'web' }, 400, 'parameter_invalid', 'sales_channel_id');
    await refuse({ ...valid, is_active: 'yes' }, 400, 'parameter_invalid', 'is_active');
    await refuse({ ...valid, priority: 1 }, 400, 'parameter_unknown', 'priority');
    await refuse({ ...valid, approver_user_id: stranger.owner.id }, 404, 'not_found', 'approver_user_id');
    await refuse({ ...valid, approver_user_id: newId() }, 404, 'not_found', 'approver_user_id');
    await refuse({ ...valid, account_id: strangerAccount.id }, 404, 'not_found', 'account_id');
    await refuse({ ...valid, account_id: vendor.id }, 404, 'not_found', 'account_id');
    // No endpoint manages users (they are provisioned with the entity): deactivate the approver directly.
    await owner.sql((db) => db.query('UPDATE users SET is_active = false WHERE entity_id = $1 AND id = $2', [owner.entity.id, approver.userId]));
    await refuse(valid, 422, 'approver_user_inactive', 'approver_user_id');
  });

  it("answers 404 for another entity's rule on get, update and delete; refuses clearing both scopes and deleting a rule that routed orders", async () => {
    const { owner, customer, order, rule } = await approvalWorld();
    const stranger = await api.newEntity();
    const mine = await rule({ account_id: customer.id });
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const response = await api.request(method, `${RULES}/${mine.id}`, {
        key: stranger.secret,
        body: method === 'PATCH' ? { threshold_amount: 5 } : undefined,
      });
      expect(response.status, `${method} ${response.text}`).toBe(404);
      expect(response.error).toMatchObject({ code: 'not_found', param: 'id' });
    }
    await api.expectRefusal(owner, 'PATCH', `${RULES}/${mine.id}`, { account_id: null }, 400, 'parameter_invalid', 'account_id');
    await api.expectRefusal(owner, 'PATCH', `${RULES}/${mine.id}`, { approver_user_id: stranger.owner.id }, 404, 'not_found', 'approver_user_id');
    await api.expectRefusal(owner, 'PATCH', `${RULES}/${mine.id}`, { threshold_amount: '1.234' }, 400, 'parameter_invalid', 'threshold_amount');

    const so = await order(20);
    expect(await orderAction(api, owner, so.id, 'confirm')).toMatchObject({ order_status: 'on_hold', approval_rule_id: mine.id });
    const inUse = await api.expectRefusal(owner, 'DELETE', `${RULES}/${mine.id}`, undefined, 409, 'approval_rule_in_use', 'id');
    expect(inUse.references).toEqual({ orders: 1 });
    expect(await api.patch(owner, `${RULES}/${mine.id}`, { is_active: false })).toMatchObject({ is_active: false });
  });

  it('keeps GET /v1/orders/{id} and the order routes working beside the static approval-rules segment', async () => {
    const { owner, order } = await approvalWorld();
    const so = await order(1);
    expect(await api.get(owner, `/v1/orders/${so.id}`)).toMatchObject({ id: so.id, object: 'order' });
    expect(await api.get(owner, RULES)).toMatchObject({ object: 'list', data: [] });
    expect((await api.request('DELETE', RULES, { key: owner.secret })).status).toBe(404);
    const readOnly = await api.newEntity({ scopes: ['settings:read'] });
    expect((await api.request('GET', RULES, { key: readOnly.secret })).status).toBe(200);
    const denied = await api.request('POST', RULES, {
      key: readOnly.secret,
      body: { sales_channel_id: CHANNEL, threshold_amount: 1, approver_user_id: readOnly.owner.id },
    });
    expect(denied.error).toMatchObject({ code: 'insufficient_scope', required: 'settings:write' });
  });
});

describe('approval routing on confirm', () => {
  it('holds a sales order strictly over a per-customer threshold; exactly the threshold and under confirm', async () => {
    const { owner, customer, other, widget, approver, order, rule } = await approvalWorld();
    const perCustomer = await rule({ account_id: customer.id, threshold_amount: 100 });
    const over = await order(11); // 110.00
    const held = await orderAction(api, owner, over.id, 'confirm');
    expect(held).toMatchObject({
      order_status: 'on_hold',
      is_on_hold: true,
      hold_type: 'approval',
      approval_rule_id: perCustomer.id,
      approver_user_id: approver.userId,
      approval_requested_at: expect.any(String),
      approved_by: null,
      rejected_by: null,
      balance_due: 110,
    });
    expect(await eventTypesOf(owner, over.id)).toEqual(['order.created', 'order.approval_requested']);
    expect(await orderAction(api, owner, (await order(10)).id, 'confirm')).toMatchObject({
      order_status: 'confirmed',
      is_on_hold: false,
      approval_rule_id: null,
    });
    expect(await orderAction(api, owner, (await order(3)).id, 'confirm')).toMatchObject({ order_status: 'confirmed' });
    // Another customer's order is not this rule's.
    const theirs = await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: other.id,
      lines: [{ product_id: widget.id, quantity: 50 }],
    });
    expect(await orderAction(api, owner, theirs.id, 'confirm')).toMatchObject({ order_status: 'confirmed' });
  });

  it('routes per channel and per customer-in-channel; ignores inactive rules, invoices and quotes; the highest threshold exceeded decides', async () => {
    const { owner, customer, other, widget, order, rule } = await approvalWorld();
    const senior = await userWithKey(owner, []);
    const channelRule = await rule({ sales_channel_id: CHANNEL, threshold_amount: 50 });
    await rule({ account_id: other.id, sales_channel_id: CHANNEL, threshold_amount: 0, is_active: false });
    const seniorRule = await rule({ account_id: customer.id, sales_channel_id: CHANNEL, threshold_amount: 500, approver_user_id: senior.userId });

    expect(await orderAction(api, owner, (await order(6, { sales_channel_id: CHANNEL })).id, 'confirm')).toMatchObject({
      order_status: 'on_hold',
      approval_rule_id: channelRule.id,
      sales_channel_id: CHANNEL,
    });
    expect(await orderAction(api, owner, (await order(60, { sales_channel_id: CHANNEL })).id, 'confirm')).toMatchObject({
      approval_rule_id: seniorRule.id,
      approver_user_id: senior.userId,
    });
    expect(await orderAction(api, owner, (await order(60, { sales_channel_id: OTHER_CHANNEL })).id, 'confirm')).toMatchObject({ order_status: 'confirmed' });
    expect(await orderAction(api, owner, (await order(60)).id, 'confirm')).toMatchObject({ order_status: 'confirmed' });
    // The inactive customer-in-channel rule (threshold 0) routes nothing; the channel rule still does.
    const others = await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: other.id,
      sales_channel_id: CHANNEL,
      lines: [{ product_id: widget.id, quantity: 1 }],
    });
    expect(await orderAction(api, owner, others.id, 'confirm')).toMatchObject({ order_status: 'confirmed' });
    // A channel set later by PATCH counts; invoices and quotes are never routed.
    const patched = await order(10);
    await api.patch(owner, `/v1/orders/${patched.id}`, { sales_channel_id: CHANNEL });
    expect(await orderAction(api, owner, patched.id, 'confirm')).toMatchObject({ order_status: 'on_hold', approval_rule_id: channelRule.id });
    for (const document_type of ['invoice', 'quote'] as const) {
      const doc = await api.post(owner, '/v1/orders', {
        document_type,
        account_id: customer.id,
        sales_channel_id: CHANNEL,
        lines: [{ product_id: widget.id, quantity: 100 }],
      });
      expect(await orderAction(api, owner, doc.id, 'confirm')).toMatchObject({ order_status: 'confirmed', approval_rule_id: null });
    }
    // A quote converted to a sales order keeps its channel, so the sales order is routed.
    const quote = await api.post(owner, '/v1/orders', {
      document_type: 'quote',
      account_id: customer.id,
      sales_channel_id: CHANNEL,
      lines: [{ product_id: widget.id, quantity: 10 }],
    });
    const converted = await api.post(owner, `/v1/orders/${quote.id}/convert`);
    expect(converted).toMatchObject({ document_type: 'sales_order', sales_channel_id: CHANNEL });
    expect(await orderAction(api, owner, converted.id, 'confirm')).toMatchObject({ order_status: 'on_hold', approval_rule_id: channelRule.id });
  });
});

describe('sales channels on orders', () => {
  it('lists orders filtered by sales_channel_id, and a duplicate keeps the channel (so it routes the same way)', async () => {
    const { owner, order } = await approvalWorld();
    const web = await order(6, { sales_channel_id: CHANNEL });
    await order(6, { sales_channel_id: OTHER_CHANNEL });
    await order(6);
    const listed = await api.request('GET', '/v1/orders', { key: owner.secret, query: { document_type: 'sales_order', sales_channel_id: CHANNEL } });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.map((o) => o.id)).toEqual([web.id]);
    const copy = await api.post(owner, `/v1/orders/${web.id}/duplicate`);
    expect(copy.sales_channel_id).toBe(CHANNEL);
  });
});

describe('approve and reject', () => {
  it("lets the order's approver approve (→ confirmed, who and when recorded) and refuses anyone else without orders.approve", async () => {
    const { owner, customer, approver, order, rule } = await approvalWorld();
    await rule({ account_id: customer.id });
    const clerk = await userWithKey(owner, ['orders.revision_override']);
    const so = await order(20);
    await orderAction(api, owner, so.id, 'confirm');
    const denied = await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/approve`, undefined, 403, 'insufficient_permissions', 'id', clerk.secret);
    expect(denied).toMatchObject({ type: 'permission_error', permission: 'orders.approve' });
    await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/reject`, { reason: 'No' }, 403, 'insufficient_permissions', 'id', clerk.secret);
    const scoped = await userWithKey(owner, [], ['orders:read']);
    await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/approve`, undefined, 403, 'insufficient_scope', undefined, scoped.secret);

    const approved = await orderAction(api, approver.secret, so.id, 'approve');
    expect(approved).toMatchObject({
      order_status: 'confirmed',
      is_on_hold: false,
      hold_type: null,
      approved_by: approver.userId,
      approved_at: expect.any(String),
      approval_rule_id: expect.any(String),
      balance_due: 200,
    });
    expect(await eventTypesOf(owner, so.id)).toEqual(['order.created', 'order.approval_requested', 'order.approved']);
    // Confirmed now: a second decision is a state conflict, and the order ships normally.
    const again = await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/approve`, undefined, 409, 'order_invalid_transition', 'id');
    expect(again).toMatchObject({ current_status: 'confirmed', reason: 'not_allowed' });
    await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/reject`, { reason: 'Late' }, 409, 'order_invalid_transition', 'id');
  });

  it('lets a user with orders.approve reject (→ draft with the reason); a corrected order is routed again', async () => {
    const { owner, customer, approver, order, rule } = await approvalWorld();
    await rule({ account_id: customer.id, threshold_amount: 100 });
    const manager = await userWithKey(owner, ['orders.approve']);
    const so = await order(20);
    await orderAction(api, owner, so.id, 'confirm');
    await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/reject`, unchecked({}), 400, 'parameter_missing', 'reason', manager.secret);
    await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/reject`, { reason: '  ' }, 400, 'parameter_invalid', 'reason', manager.secret);
    const rejected = await orderAction(api, manager.secret, so.id, 'reject', { reason: 'Credit limit exceeded' });
    expect(rejected).toMatchObject({
      order_status: 'draft',
      is_on_hold: false,
      hold_type: null,
      rejected_by: manager.userId,
      rejected_at: expect.any(String),
      rejection_reason: 'Credit limit exceeded',
      approved_by: null,
      balance_due: 0,
    });
    expect(await eventTypesOf(owner, so.id)).toContain('order.rejected');
    // Still over the threshold: confirming again routes it again; under it, it confirms.
    expect(await orderAction(api, owner, so.id, 'confirm')).toMatchObject({
      order_status: 'on_hold',
      approver_user_id: approver.userId,
      rejection_reason: 'Credit limit exceeded',
    });
    await orderAction(api, owner, so.id, 'reject', { reason: 'Split it' });
    await api.patch(owner, `/v1/orders/${so.id}/items/${so.lines[0].id}`, { quantity: 5 });
    expect(await orderAction(api, owner, so.id, 'confirm')).toMatchObject({ order_status: 'confirmed', order_total: 50 });
  });

  it('refuses release of an approval hold (409 with a hint to approve) and reserves hold_type approval; plain holds cannot be approved', async () => {
    const { owner, customer, order, rule } = await approvalWorld();
    await rule({ account_id: customer.id });
    const so = await order(20);
    await orderAction(api, owner, so.id, 'confirm');
    const release = await api.expectRefusal(owner, 'POST', `/v1/orders/${so.id}/release`, undefined, 409, 'order_invalid_transition', 'id');
    expect(release).toMatchObject({ current_status: 'on_hold', reason: 'approval_pending', allowed_actions: ['cancel', 'approve', 'reject'] });
    expect(release.hint).toMatch(/approve/);

    const small = await order(1);
    await orderAction(api, owner, small.id, 'confirm');
    await api.expectRefusal(owner, 'POST', `/v1/orders/${small.id}/hold`, { hold_type: 'approval' }, 400, 'parameter_invalid', 'hold_type');
    await orderAction(api, owner, small.id, 'hold', { hold_type: 'credit' });
    const notPending = await api.expectRefusal(owner, 'POST', `/v1/orders/${small.id}/approve`, undefined, 409, 'order_invalid_transition', 'id');
    expect(notPending).toMatchObject({ current_status: 'on_hold', reason: 'not_pending_approval' });
    await api.expectRefusal(owner, 'POST', `/v1/orders/${newId()}/approve`, undefined, 404, 'not_found', 'id');
    // A held order can still be cancelled.
    expect(await orderAction(api, owner, so.id, 'cancel')).toMatchObject({ order_status: 'cancelled', balance_due: 0 });
  });

  it('counts the lines of an order held for approval as committed only once approved', async () => {
    const { owner, location, widget, customer, approver, order, rule } = await approvalWorld();
    await rule({ account_id: customer.id });
    await api.post(owner, '/v1/inventory/receipts', { product_id: widget.id, location_id: location.id, quantity: 50, unit_cost: 1 });
    const committed = async () => {
      const list = (await api.get(owner, '/v1/inventory/balances', { location_id: location.id })).data;
      return list.find((b) => b.product_id === widget.id)!.committed;
    };
    const so = await order(20);
    await orderAction(api, owner, so.id, 'confirm');
    expect(await committed()).toBe(0);
    await orderAction(api, approver.secret, so.id, 'approve');
    expect(await committed()).toBe(20);
  });

  it('lets exactly one of a racing approve and reject win', async () => {
    const { owner, customer, approver, order, rule } = await approvalWorld();
    await rule({ account_id: customer.id });
    for (let round = 0; round < 3; round++) {
      const so = await order(20);
      await orderAction(api, owner, so.id, 'confirm');
      const [approve, reject] = await Promise.all([
        api.request('POST', `/v1/orders/${so.id}/approve`, { key: approver.secret }),
        api.request('POST', `/v1/orders/${so.id}/reject`, { key: owner.secret, body: { reason: 'Race' } }),
      ]);
      expect([approve.status, reject.status].sort()).toEqual([200, 409]);
      const loser = approve.status === 409 ? approve : reject;
      expect(loser.error).toMatchObject({ code: 'order_invalid_transition' });
      const final = await api.get(owner, `/v1/orders/${so.id}`);
      expect(final.order_status).toBe(approve.status === 200 ? 'confirmed' : 'draft');
      const decisions = (await eventTypesOf(owner, so.id)).filter((type) => type === 'order.approved' || type === 'order.rejected');
      expect(decisions).toHaveLength(1);
    }
  });
});
