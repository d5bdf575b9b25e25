/**
 * Property, through the API: an invoice made and confirmed in a batch, in a dry run of it, or in
 * single requests has the same totals and posts the same journal lines; the dry run keeps nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { setupTestApi, tenantContents } from '../support/harness';
import { salesWorld } from '../support/worlds';

const api = setupTestApi();

type Body = Record<string, unknown>;
type Entry = { lines: { account_id: string; debit: number; credit: number }[] };
const TOTALS = ['subtotal', 'discount_total', 'tax_total', 'order_total', 'balance_due'];

const lineArbitrary = fc.record({
  quantity: fc.integer({ min: 1, max: 40 }),
  cents: fc.integer({ min: 1, max: 999_999 }),
  discount: fc.option(fc.integer({ min: 1, max: 99 }), { nil: undefined }),
});

/** Journal lines without ids, in a stable order: what two postings of the same invoice share. */
const postedLines = (entries: Entry[]) =>
  entries.flatMap((entry) => entry.lines.map(({ account_id, debit, credit }) => `${account_id} ${debit} ${credit}`)).sort();

describe('an invoice through a batch', () => {
  it('has the totals and postings of single requests, and its dry run keeps nothing', async () => {
    const w = await salesWorld(api);
    await fc.assert(
      fc.asyncProperty(fc.array(lineArbitrary, { minLength: 1, maxLength: 6 }), async (lines) => {
        const body = {
          document_type: 'invoice',
          account_id: w.account.id,
          lines: lines.map((line) => ({
            product_id: w.widget.id,
            quantity: line.quantity,
            sell_rate: (line.cents / 100).toFixed(2),
            ...(line.discount !== undefined && { discount_percent: line.discount }),
          })),
        };
        const operations = [
          { method: 'POST', path: '/v1/orders', body },
          { method: 'POST', path: '/v1/orders/$ops[0].id/confirm', body: {} },
        ];
        const before = await tenantContents(w.owner.entity.id);
        const dry = await api.raw('POST', '/v1/batch', { key: w.owner.secret, query: { dry_run: 'true' }, body: { operations } });
        expect(dry.status, dry.text).toBe(200);
        expect(await tenantContents(w.owner.entity.id)).toEqual(before);

        const batched = await api.raw('POST', '/v1/batch', { key: w.owner.secret, body: { operations } });
        expect(batched.status, batched.text).toBe(200);
        const single = await api.post(w.owner, '/v1/orders', body as never);
        const confirmed = (await api.raw('POST', `/v1/orders/${single.id}/confirm`, { key: w.owner.secret, body: {} })).body as Body;

        const dryConfirmed = (dry.body as { results: { body: Body }[] }).results[1].body;
        const batchConfirmed = (batched.body as { results: { body: Body }[] }).results[1].body;
        for (const field of TOTALS) {
          expect(batchConfirmed[field], field).toEqual(confirmed[field]);
          expect(dryConfirmed[field], field).toEqual(confirmed[field]);
        }
        const entriesOf = async (orderId: unknown) =>
          (await api.get(w.owner, '/v1/journal-entries', { source_id: String(orderId), limit: '100' })).data as unknown as Entry[];
        const singleLines = postedLines(await entriesOf(single.id));
        expect(singleLines.length).toBeGreaterThanOrEqual(2);
        expect(postedLines(await entriesOf(batchConfirmed.id))).toEqual(singleLines);
        expect(postedLines((dry.body as { journal_entries: Entry[] }).journal_entries)).toEqual(singleLines);
      }),
      { numRuns: Number(process.env.BATCH_PROPERTY_RUNS ?? 10), endOnFailure: true },
    );
  });
});
