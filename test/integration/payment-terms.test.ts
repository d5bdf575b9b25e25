/**
 * Payment terms (/v1/payment-terms): create, read, list, update and delete net-days terms; a
 * vendor bill's due_date comes from payment_term_id when not given; terms a bill names are not
 * deleted (409 payment_term_in_use).
 */
import { describe, expect, it } from 'vitest';
import { eventTypesOf, setupTestApi } from '../support/harness';
import { payablesWorld } from '../support/payables-fixtures';

const api = setupTestApi();
const TERMS = '/v1/payment-terms';

describe('payment terms routes', () => {
  it('creates, gets, lists newest first with a cursor, updates and deletes payment terms, with their events', async () => {
    const owner = await api.newEntity();
    const net30 = await api.post(owner, TERMS, { name: 'Net 30', net_days: 30 });
    expect(net30).toMatchObject({ object: 'payment_term', entity_id: owner.entity.id, name: 'Net 30', net_days: 30, livemode: false });
    const due = await api.post(owner, TERMS, { name: 'Due on receipt', net_days: 0 });
    const net60 = await api.post(owner, TERMS, { name: 'Net 60', net_days: 60 });
    expect(await api.get(owner, `${TERMS}/${net30.id}`)).toEqual(net30);

    const page1 = await api.request('GET', TERMS, { key: owner.secret, query: { limit: '2' } });
    expect(page1.body).toMatchObject({ object: 'list', has_more: true, next_cursor: due.id });
    expect(page1.body.data.map((t) => t.id)).toEqual([net60.id, due.id]);
    const page2 = await api.request('GET', TERMS, { key: owner.secret, query: { limit: '2', starting_after: page1.body.next_cursor! } });
    expect(page2.body).toMatchObject({ has_more: false });
    expect(page2.body.data.map((t) => t.id)).toEqual([net30.id]);

    const updated = await api.patch(owner, `${TERMS}/${net30.id}`, { name: 'Net 45', net_days: 45 });
    expect(updated).toMatchObject({ id: net30.id, name: 'Net 45', net_days: 45 });
    const deleted = await api.request('DELETE', `${TERMS}/${due.id}`, { key: owner.secret });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: due.id, object: 'payment_term', deleted: true, livemode: false });
    expect((await api.raw('GET', `${TERMS}/${due.id}`, { key: owner.secret })).status).toBe(404);

    expect(await eventTypesOf(owner, net30.id)).toEqual(['payment_term.created', 'payment_term.updated']);
    expect(await eventTypesOf(owner, due.id)).toEqual(['payment_term.created', 'payment_term.deleted']);
  });

  it('refuses a missing or empty name and net_days outside 0 to 3650 or fractional (400 naming the field), writing nothing', async () => {
    const owner = await api.newEntity();
    await api.expectRefusal(owner, 'POST', TERMS, { name: '  ', net_days: 30 }, 400, 'parameter_invalid', 'name');
    await api.expectRefusal(owner, 'POST', TERMS, { name: 'Net -1', net_days: -1 }, 400, 'parameter_invalid', 'net_days');
    await api.expectRefusal(owner, 'POST', TERMS, { name: 'Net forever', net_days: 3651 }, 400, 'parameter_invalid', 'net_days');
    await api.expectRefusal(owner, 'POST', TERMS, { name: 'Net 1.5', net_days: 1.5 }, 400, 'parameter_invalid', 'net_days');
    const term = await api.post(owner, TERMS, { name: 'Net 10', net_days: 10 });
    await api.expectRefusal(owner, 'PATCH', `${TERMS}/${term.id}`, { net_days: -5 }, 400, 'parameter_invalid', 'net_days');
  });

  it("another entity's payment terms are 404, on the routes and as a bill's payment_term_id", async () => {
    const w = await payablesWorld(api);
    const stranger = await api.newEntity();
    const theirs = await api.post(stranger, TERMS, { name: 'Net 30', net_days: 30 });
    await api.expectRefusal(w.owner, 'GET', `${TERMS}/${theirs.id}`, undefined, 404, 'not_found', 'id');
    await api.expectRefusal(w.owner, 'PATCH', `${TERMS}/${theirs.id}`, { net_days: 1 }, 404, 'not_found', 'id');
    await api.expectRefusal(w.owner, 'DELETE', `${TERMS}/${theirs.id}`, undefined, 404, 'not_found', 'id');
    await api.expectRefusal(w.owner, 'POST', '/v1/vendor-bills', { vendor_id: w.vendor.id, payment_term_id: theirs.id }, 404, 'not_found', 'payment_term_id');
    expect((await api.get(w.owner, TERMS)).data).toEqual([]);
  });
});

describe('payment terms on vendor bills', () => {
  it('bill due_date from payment_term_id when not given: bill_date + net_days; a sent due_date wins; new net_days never move an existing bill', async () => {
    const w = await payablesWorld(api);
    const terms = await api.post(w.owner, TERMS, { name: 'Net 30', net_days: 30 });
    const bill = await w.bill({ bill_date: '2026-01-31', payment_term_id: terms.id });
    expect(bill).toMatchObject({ bill_date: '2026-01-31', due_date: '2026-03-02', payment_term_id: terms.id });
    expect((await w.bill({ bill_date: '2026-01-31', payment_term_id: terms.id, due_date: '2026-02-05' })).due_date).toBe('2026-02-05');

    await api.patch(w.owner, `${TERMS}/${terms.id}`, { net_days: 10 });
    expect((await api.get(w.owner, `/v1/vendor-bills/${bill.id}`)).due_date).toBe('2026-03-02');
    expect((await w.bill({ bill_date: '2026-01-31', payment_term_id: terms.id })).due_date).toBe('2026-02-10');
    // A new bill_date on a draft computes the due date again from its terms.
    const moved = await api.patch(w.clerk.secret, `/v1/vendor-bills/${bill.id}`, { bill_date: '2026-02-01' });
    expect(moved).toMatchObject({ bill_date: '2026-02-01', due_date: '2026-02-11' });
  });

  it('payment_term_in_use on delete: terms any bill names (voided ones too) are refused with the count; unused terms are deleted', async () => {
    const w = await payablesWorld(api);
    const terms = await api.post(w.owner, TERMS, { name: 'Net 15', net_days: 15 });
    const unused = await api.post(w.owner, TERMS, { name: 'Net 90', net_days: 90 });
    const first = await w.bill({ payment_term_id: terms.id });
    await w.bill({ payment_term_id: terms.id });
    await api.post(w.clerk.secret, `/v1/vendor-bills/${first.id}/void`, undefined, 200);
    const refused = await api.expectRefusal(w.owner, 'DELETE', `${TERMS}/${terms.id}`, undefined, 409, 'payment_term_in_use', 'id');
    expect(refused).toMatchObject({ references: { vendor_bills: 2 } });
    expect(await api.get(w.owner, `${TERMS}/${terms.id}`)).toMatchObject({ net_days: 15 });
    expect((await api.request('DELETE', `${TERMS}/${unused.id}`, { key: w.owner.secret })).body).toMatchObject({ deleted: true });
  });
});
