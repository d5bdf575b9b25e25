/**
 * Dry run (`?dry_run=true` on every write): the real request's status and body plus dry_run,
 * journal_entries and events, with nothing kept: no row, no number, no event, no idempotency
 * record. The route-by-route check is in security-matrix.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { setupTestApi, tenantContents } from '../support/harness';
import { salesWorld } from '../support/worlds';

const api = setupTestApi();

type Entry = { entry_number: string; lines: { account_id: string; debit: number; credit: number }[] };
type Answer = Record<string, unknown> & { dry_run?: true; journal_entries?: Entry[]; events?: string[] };

/** The lines of entries, without their ids: what a dry run and the real request must agree on. */
const postedLines = (entries: Entry[]) => entries.map((entry) => entry.lines.map(({ account_id, debit, credit }) => ({ account_id, debit, credit })));

describe('dry run', () => {
  it('answers an invoice confirmation as the real one does (number, totals, postings, events) and keeps nothing', async () => {
    const w = await salesWorld(api, { widgetStock: 10 });
    const invoice = await w.order('invoice', [{ product_id: w.widget.id, quantity: 3 }]);
    const before = await tenantContents(w.owner.entity.id);
    const published = api.published.length;

    const dry = await api.raw('POST', `/v1/orders/${invoice.id}/confirm`, { key: w.owner.secret, query: { dry_run: 'true' }, body: {} });
    expect(dry.status, dry.text).toBe(200);
    const answer = dry.body as Answer;
    expect(answer.dry_run).toBe(true);
    expect(answer.events).toContain('order.confirmed');
    expect(answer.events).toContain('journal_entry.posted');
    expect(answer.journal_entries!.length).toBeGreaterThan(0);
    for (const entry of answer.journal_entries!) {
      const debits = entry.lines.reduce((total, line) => total + Math.round(line.debit * 100), 0);
      const credits = entry.lines.reduce((total, line) => total + Math.round(line.credit * 100), 0);
      expect(debits).toBe(credits);
    }
    expect(await tenantContents(w.owner.entity.id)).toEqual(before);
    expect(api.published.length).toBe(published);
    expect((await w.getOrder(invoice.id)).order_status).toBe('draft');

    const real = await api.raw('POST', `/v1/orders/${invoice.id}/confirm`, { key: w.owner.secret, body: {} });
    expect(real.status, real.text).toBe(200);
    const confirmed = real.body as Answer;
    expect(confirmed.dry_run).toBeUndefined();
    const { dry_run: _flag, journal_entries, events, ...dryBody } = answer;
    for (const field of ['order_status', 'order_number', 'order_total', 'tax_total', 'balance_due', 'subtotal'])
      expect(dryBody[field], field).toEqual(confirmed[field]);
    // The real request posts the very entries the dry run showed, under the same gap-free numbers.
    const entries = await api.get(w.owner, '/v1/journal-entries', { source_id: invoice.id, limit: '100' });
    const realEntries = entries.data as unknown as Entry[];
    expect(realEntries.map((entry) => entry.entry_number).sort()).toEqual(journal_entries!.map((entry) => entry.entry_number).sort());
    expect(
      postedLines(realEntries)
        .flat()
        .sort((a, b) => a.account_id.localeCompare(b.account_id) || a.debit - b.debit),
    ).toEqual(
      postedLines(journal_entries!)
        .flat()
        .sort((a, b) => a.account_id.localeCompare(b.account_id) || a.debit - b.debit),
    );
    expect(api.published.slice(published).map((event) => event.type)).toEqual(events);
  });

  it('creates nothing: the next real create takes the number the dry run showed', async () => {
    const w = await salesWorld(api);
    const before = await tenantContents(w.owner.entity.id);
    const body = { document_type: 'sales_order', account_id: w.account.id, lines: [{ product_id: w.widget.id, quantity: 2 }] };
    const dry = await api.raw('POST', '/v1/orders', { key: w.owner.secret, query: { dry_run: 'true' }, body });
    expect(dry.status, dry.text).toBe(201);
    const answer = dry.body as Answer;
    expect(answer).toMatchObject({ object: 'order', dry_run: true, journal_entries: [], events: ['order.created'], order_total: 20 });
    expect(await tenantContents(w.owner.entity.id)).toEqual(before);
    const missing = await api.raw('GET', `/v1/orders/${String(answer.id)}`, { key: w.owner.secret });
    expect(missing.status).toBe(404);
    const real = await api.raw('POST', '/v1/orders', { key: w.owner.secret, body });
    expect(real.status).toBe(201);
    expect((real.body as Answer).order_number).toBe(answer.order_number);
  });

  it('changes nothing on a PATCH or a DELETE, and answers the changed resource', async () => {
    const w = await salesWorld(api);
    const before = await tenantContents(w.owner.entity.id);
    const patched = await api.raw('PATCH', `/v1/accounts/${w.account.id}`, { key: w.owner.secret, query: { dry_run: 'true' }, body: { name: 'Renamed' } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ id: w.account.id, name: 'Renamed', dry_run: true, events: ['account.updated'] });
    const deleted = await api.raw('DELETE', `/v1/products/${w.gadget.id}`, { key: w.owner.secret, query: { dry_run: 'true' } });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toMatchObject({ id: w.gadget.id, dry_run: true });
    expect(await tenantContents(w.owner.entity.id)).toEqual(before);
    expect((await api.get(w.owner, `/v1/accounts/${w.account.id}`)).name).toBe('Acme');
  });

  it('answers bad input with the real request’s error', async () => {
    const w = await salesWorld(api);
    for (const body of [
      { document_type: 'invoice' },
      { document_type: 'invoice', account_id: '00000000-0000-4000-8000-000000000000' },
      { document_type: 'nope', account_id: w.account.id },
    ]) {
      const dry = await api.raw('POST', '/v1/orders', { key: w.owner.secret, query: { dry_run: 'true' }, body });
      const real = await api.raw('POST', '/v1/orders', { key: w.owner.secret, body });
      expect(real.status).toBeGreaterThanOrEqual(400);
      expect({ status: dry.status, code: dry.error.code, param: dry.error.param }).toEqual({
        status: real.status,
        code: real.error.code,
        param: real.error.param,
      });
    }
  });

  it('refuses an Idempotency-Key (400), stores no record, and the key then serves the real request', async () => {
    const w = await salesWorld(api);
    const body = { document_type: 'quote', account_id: w.account.id };
    const headers = { 'Idempotency-Key': `dry-${w.owner.entity.code}` };
    const before = await tenantContents(w.owner.entity.id);
    const dry = await api.raw('POST', '/v1/orders', { key: w.owner.secret, query: { dry_run: 'true' }, body, headers });
    expect(dry.status).toBe(400);
    expect(dry.error).toMatchObject({ code: 'dry_run_idempotency_key', param: 'Idempotency-Key' });
    expect(await tenantContents(w.owner.entity.id)).toEqual(before);
    const real = await api.raw('POST', '/v1/orders', { key: w.owner.secret, body, headers });
    expect(real.status).toBe(201);
    expect(real.headers.get('idempotent-replayed')).toBeNull();
  });

  it('is refused by a route whose work reaches beyond the transaction (card processor), before anything runs', async () => {
    const w = await salesWorld(api);
    const before = await tenantContents(w.owner.entity.id);
    const dry = await api.raw('POST', `/v1/accounts/${w.account.id}/payment-methods`, {
      key: w.owner.secret,
      query: { dry_run: 'true' },
      body: { type: 'card' },
    });
    expect(dry.status, dry.text).toBe(400);
    expect(dry.error).toMatchObject({ code: 'dry_run_not_supported', param: 'dry_run' });
    expect(await tenantContents(w.owner.entity.id)).toEqual(before);
  });

  it('takes dry_run=false as the real request, refuses any other value, and is unknown on a read', async () => {
    const w = await salesWorld(api);
    const real = await api.raw('POST', '/v1/locations', { key: w.owner.secret, query: { dry_run: 'false' }, body: { name: 'Second' } });
    expect(real.status).toBe(201);
    expect((real.body as Answer).dry_run).toBeUndefined();
    const bad = await api.raw('POST', '/v1/locations', { key: w.owner.secret, query: { dry_run: 'yes' }, body: { name: 'Third' } });
    expect(bad.status).toBe(400);
    expect(bad.error).toMatchObject({ code: 'parameter_invalid', param: 'dry_run' });
    const read = await api.raw('GET', '/v1/locations', { key: w.owner.secret, query: { dry_run: 'true' } });
    expect(read.status).toBe(400);
    expect(read.error).toMatchObject({ code: 'parameter_unknown', param: 'dry_run' });
  });
});
