/**
 * The quote expiry job (shared/orders/expire-quotes.ts): a quote is expired from its expires_at on
 * by the read-time rule, and the hourly job announces each lapse once with order.expired.
 */
import { describe, expect, it } from 'vitest';
import { handler as scheduledQuoteExpiry } from '../../functions/platform/expire-quotes';
import { runQuoteExpiry } from '../../shared/orders/expire-quotes';
import { eventTypesOf, setupTestApi, type TestEntity } from '../support/harness';
import { salesWorld } from '../support/worlds';

const api = setupTestApi();

const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
const expiredEvents = async (owner: TestEntity, id: string) => (await eventTypesOf(owner, id)).filter((type) => type === 'order.expired');
const published = (id: string) => api.published.filter((event) => event.type === 'order.expired' && event.data.object.id === id);

describe('the quote expiry job', () => {
  it('an expired quote gets one order.expired event when the expiry job runs; a re-run emits none; a quote without expires_at or not yet expired is untouched; a non-quote is untouched', async () => {
    const w = await salesWorld(api, { location: false });
    const lines = [{ product_id: w.widget.id, quantity: 2 }];
    const lapsed = await w.order('quote', lines, { expires_at: hoursFromNow(-1) });
    const forever = await w.order('quote', lines);
    const pending = await w.order('quote', lines, { expires_at: hoursFromNow(24) });
    const order = await w.order('sales_order', lines);
    const cancelled = await w.order('quote', lines, { expires_at: hoursFromNow(24) });
    await w.act(cancelled.id, 'cancel');
    await api.patch(w.owner, `/v1/orders/${cancelled.id}`, { notes: 'kept' });
    // Expired before any run, by the read-time rule.
    expect(lapsed.is_expired).toBe(true);

    const first = await runQuoteExpiry(new Date(), { entityIds: [w.owner.entity.id] });
    expect(first.failures).toEqual([]);
    expect(first.expired).toEqual([{ entity_id: w.owner.entity.id, order_id: lapsed.id, order_number: lapsed.order_number, expires_at: lapsed.expires_at }]);
    expect(await expiredEvents(w.owner, lapsed.id)).toEqual(['order.expired']);
    const [event] = published(lapsed.id);
    expect(event).toMatchObject({ type: 'order.expired', payload_version: 2, livemode: false, entity_id: w.owner.entity.id });
    expect(event.data.object).toMatchObject({ id: lapsed.id, document_type: 'quote', order_status: 'draft', is_expired: true, expires_at: lapsed.expires_at });
    expect(event.data.object).not.toHaveProperty('lines');
    // The mark changes no attribute of the quote.
    const after = await w.getOrder(lapsed.id);
    expect(after).toMatchObject({ is_expired: true, updated_at: lapsed.updated_at, balance_due: 20 });

    const second = await runQuoteExpiry(new Date(), { entityIds: [w.owner.entity.id] });
    expect(second).toMatchObject({ expired: [], failures: [] });
    expect(await expiredEvents(w.owner, lapsed.id)).toEqual(['order.expired']);
    for (const untouched of [forever, pending, order, cancelled]) expect(await expiredEvents(w.owner, untouched.id)).toEqual([]);
    const marks = await w.owner.sql((db) =>
      db.query<{ id: string; marked: boolean }>('SELECT id, expired_at IS NOT NULL AS marked FROM orders WHERE entity_id = $1 ORDER BY created_at, id', [
        w.owner.entity.id,
      ]),
    );
    expect(marks.filter((row) => row.marked).map((row) => row.id)).toEqual([lapsed.id]);
  });

  it('a run as of a time before expires_at leaves the quote for a later run; a quote converted to a live sales order is not announced', async () => {
    const w = await salesWorld(api, { location: false });
    const lines = [{ product_id: w.widget.id, quantity: 1 }];
    const quote = await w.order('quote', lines, { expires_at: hoursFromNow(1) });
    const accepted = await w.order('quote', lines, { expires_at: hoursFromNow(1) });
    await w.act(accepted.id, 'convert');
    // Both lapse: moved into the past directly, as time passing would.
    await w.owner.sql((db) => db.query(`UPDATE orders SET expires_at = now() - interval '1 minute' WHERE id = ANY($1)`, [[quote.id, accepted.id]]));
    expect((await runQuoteExpiry(new Date(Date.now() - 3_600_000), { entityIds: [w.owner.entity.id] })).expired).toEqual([]);
    const run = await runQuoteExpiry(new Date(), { entityIds: [w.owner.entity.id] });
    expect(run.expired.map((row) => row.order_id)).toEqual([quote.id]);
    expect(await expiredEvents(w.owner, accepted.id)).toEqual([]);
  });

  it('a quote revived by moving expires_at later is announced again when it lapses again', async () => {
    const w = await salesWorld(api, { location: false });
    const quote = await w.order('quote', [{ product_id: w.widget.id, quantity: 1 }], { expires_at: hoursFromNow(-2) });
    await runQuoteExpiry(new Date(), { entityIds: [w.owner.entity.id] });
    // The same expires_at again is no move: still announced once.
    await api.patch(w.owner, `/v1/orders/${quote.id}`, { expires_at: quote.expires_at });
    expect((await runQuoteExpiry(new Date(), { entityIds: [w.owner.entity.id] })).expired).toEqual([]);
    expect(await api.patch(w.owner, `/v1/orders/${quote.id}`, { expires_at: hoursFromNow(24) })).toMatchObject({ is_expired: false });
    expect((await runQuoteExpiry(new Date(), { entityIds: [w.owner.entity.id] })).expired).toEqual([]);
    expect(await api.patch(w.owner, `/v1/orders/${quote.id}`, { expires_at: hoursFromNow(-1) })).toMatchObject({ is_expired: true });
    const again = await runQuoteExpiry(new Date(), { entityIds: [w.owner.entity.id] });
    expect(again.expired.map((row) => row.order_id)).toEqual([quote.id]);
    expect(await expiredEvents(w.owner, quote.id)).toEqual(['order.expired', 'order.expired']);
  });

  it('the scheduled handler finds the entities across tenants and announces each quote in its own mode (live and test)', async () => {
    const pair = await api.newEntityPair();
    const quotes: Record<'live' | 'test', string> = { live: '', test: '' };
    for (const mode of ['live', 'test'] as const) {
      const owner = pair[mode];
      const account = await api.post(owner, '/v1/accounts', { name: `Acme ${mode}` });
      const quote = await api.post(owner, '/v1/orders', { document_type: 'quote', account_id: account.id, expires_at: hoursFromNow(-1) });
      quotes[mode] = quote.id;
    }
    const first = await scheduledQuoteExpiry({ time: new Date().toISOString() });
    expect(first.expired).toBeGreaterThanOrEqual(2);
    expect(first.failed).toBe(0);
    expect((await scheduledQuoteExpiry({ time: new Date().toISOString() })).expired).toBe(0);
    for (const mode of ['live', 'test'] as const) {
      const events = published(quotes[mode]);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ livemode: mode === 'live', entity_id: pair[mode].entity.id, data: { object: { livemode: mode === 'live' } } });
      expect(await expiredEvents(pair[mode], quotes[mode])).toEqual(['order.expired']);
    }
    // Another entity's quote stays out of each entity's feed.
    expect(await expiredEvents(pair.live, quotes.test)).toEqual([]);
  });
});
