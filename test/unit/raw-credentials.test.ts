import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containsCardNumber, findRawCredentials, isGtin, looksLikeCardNumber, passesAbaChecksum, passesLuhn } from '../../shared/http/raw-credentials';

/** Appends the Luhn check digit to a digit string. */
function withCheckDigit(body: string): string {
  for (let check = 0; check <= 9; check++) if (passesLuhn(`${body}${check}`)) return `${body}${check}`;
  throw new Error('unreachable');
}

const luhnPan = fc
  .integer({ min: 13, max: 19 })
  .chain((length) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length - 1, maxLength: length - 1 }))
  .map((digits) => withCheckDigit(digits.join('')));

/** A PAN as people type it: plain, in groups of four with spaces or dashes, or as a JSON number. */
const typedPan = fc.tuple(luhnPan, fc.constantFrom('', ' ', '-', 'number')).map(([pan, separator]) => {
  if (separator === 'number') return pan.length <= 15 && pan[0] !== '0' ? Number(pan) : pan;
  return separator ? (pan.match(/.{1,4}/g) ?? []).join(separator) : pan;
});

const cardishKey = fc.constantFrom('number', 'card', 'card_number', 'cardNumber', 'credit_card', 'card-no', 'pan', 'cc_number', 'debit_card_number');

/** Puts a value somewhere inside an otherwise harmless body and returns the path it sits at. */
const nested = (key: string, value: unknown) =>
  fc.constantFrom<[unknown, string]>(
    [{ [key]: value }, key],
    [{ name: 'x', metadata: { [key]: value } }, `metadata.${key}`],
    [{ items: [{ sku: 'a' }, { [key]: value }] }, `items[1].${key}`],
    [{ a: { b: { c: [{ [key]: value }] } } }, `a.b.c[0].${key}`],
  );

describe('the raw card and bank data detector', () => {
  it('passesLuhn agrees with known test card numbers', () => {
    for (const pan of ['4242424242424242', '4111111111111111', '5555555555554444', '378282246310005', '6011111111111117', '4000056655665556']) {
      expect(passesLuhn(pan), pan).toBe(true);
    }
    expect(passesLuhn('4242424242424241')).toBe(false);
  });

  it('always catches a random Luhn-valid 13 to 19 digit PAN in a card-like field, at any depth, with its path', () => {
    fc.assert(
      fc.property(typedPan, cardishKey, (pan, key) => {
        expect(looksLikeCardNumber(pan)).toBe(true);
        fc.assert(
          fc.property(nested(key, pan), ([body, path]) => {
            expect(findRawCredentials(body)).toEqual({ kind: 'card', path });
          }),
          { numRuns: 4 },
        );
      }),
      { numRuns: 300 },
    );
  });

  it('never flags a number that fails Luhn or has the wrong length', () => {
    fc.assert(
      fc.property(
        luhnPan.map((pan) => `${pan.slice(0, -1)}${(Number(pan.at(-1)) + 1) % 10}`),
        fc.stringMatching(/^[1-9]\d{0,11}$/),
        (notLuhn, short) => {
          expect(findRawCredentials({ number: notLuhn })).toBeUndefined();
          expect(findRawCredentials({ card_reference: short })).toBeUndefined();
        },
      ),
    );
  });

  it('catches security codes and card objects whatever their value', () => {
    expect(findRawCredentials({ cvc: '123' })).toEqual({ kind: 'card', path: 'cvc' });
    expect(findRawCredentials({ payment: { CVV2: 1 } })).toEqual({ kind: 'card', path: 'payment.CVV2' });
    expect(findRawCredentials({ card: { number: '42' } })).toEqual({ kind: 'card', path: 'card.number' });
    expect(findRawCredentials({ source: { number: '1', exp_month: 1 } })).toEqual({ kind: 'card', path: 'source.number' });
    expect(findRawCredentials({ 'Card Number': 'x' })).toEqual({ kind: 'card', path: 'Card Number' });
  });

  it('catches bank routing and account numbers', () => {
    expect(findRawCredentials({ routing_number: '110000000' })).toEqual({ kind: 'bank', path: 'routing_number' });
    expect(findRawCredentials({ iban: 'DE89370400440532013000' })).toEqual({ kind: 'bank', path: 'iban' });
    expect(findRawCredentials({ bank_account: { account_number: '000123456789' } })).toEqual({ kind: 'bank', path: 'bank_account.account_number' });
    expect(findRawCredentials({ account_number: '000123456789', routing_number: '110000000' })).toEqual({ kind: 'bank', path: 'account_number' });
    expect(findRawCredentials({ us_bank_account: { number: '1' } })).toEqual({ kind: 'bank', path: 'us_bank_account.number' });
  });

  it('catches a PAN under any field name, inside text, as a number and as a key, with its path', () => {
    expect(findRawCredentials({ name: 'Acme', account_number: '4111111111111111' })).toEqual({ kind: 'card', path: 'account_number' });
    expect(findRawCredentials({ notes: 'card 4111 1111 1111 1111 exp 12/30' })).toEqual({ kind: 'card', path: 'notes' });
    expect(findRawCredentials({ metadata: { cc: '4242-4242-4242-4242' } })).toEqual({ kind: 'card', path: 'metadata.cc' });
    expect(findRawCredentials({ external_reference: 'PO 378282246310005' })).toEqual({ kind: 'card', path: 'external_reference' });
    expect(findRawCredentials({ lines: [{ notes: 'ok' }, { notes: 'pan:5555555555554444.' }] })).toEqual({ kind: 'card', path: 'lines[1].notes' });
    expect(findRawCredentials({ tags: ['a', '6011 1111 1111 1117'] })).toEqual({ kind: 'card', path: 'tags[1]' });
    expect(findRawCredentials({ shipping_total: 4242424242424242 })).toEqual({ kind: 'card', path: 'shipping_total' });
    expect(findRawCredentials({ lines: [{ quantity: 4111111111111111 }] })).toEqual({ kind: 'card', path: 'lines[0].quantity' });
    // The key is the secret here: the path masks its digits.
    expect(findRawCredentials({ metadata: { '4111111111111111': 'x' } })).toEqual({ kind: 'card', path: 'metadata.****************' });
    expect(findRawCredentials('4111111111111111')).toEqual({ kind: 'card', path: '' });
  });

  it('catches a random Luhn-valid PAN in any field, wherever it sits in the text (property)', () => {
    const text = fc.string({ maxLength: 12 }).map((value) => value.replace(/[0-9A-Za-z]/g, ' '));
    const key = fc.constantFrom('notes', 'external_reference', 'description', 'memo', 'x');
    fc.assert(
      fc.property(
        typedPan.filter((pan): pan is string => typeof pan === 'string'),
        text,
        text,
        key,
        (pan, before, after, field) => {
          const value = `${before}${before && !/[\s-]$/.test(before) ? '' : ':'}${pan}${after && !/^[\s-]/.test(after) ? '' : '.'}${after}`;
          expect(containsCardNumber(value), value).toBe(true);
          expect(findRawCredentials({ metadata: { [field]: value } })).toEqual({ kind: 'card', path: `metadata.${field}` });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never flags UUIDs, hex digests, dates or Amazon-style order numbers (property)', () => {
    fc.assert(
      fc.property(fc.uuid(), fc.stringMatching(/^[0-9a-f]{64}$/), fc.stringMatching(/^\d{3}-\d{7}-\d{7}$/), (uuid, digest, amazon) => {
        const body = { id: uuid, upper: uuid.toUpperCase(), digest, external_order_id: amazon, at: '2026-11-24T07:01:21.123Z', phone: '+1 555 123 4567' };
        expect(findRawCredentials(body), JSON.stringify(body)).toBeUndefined();
      }),
      { numRuns: 1000 },
    );
  });

  it('exempts a valid GTIN in a barcode field only', () => {
    // 4006381333931 is an EAN-13 (GS1 check digit valid); 0000000000000 passes both checks.
    const gtin = '0000000000000';
    expect(isGtin(gtin) && passesLuhn(gtin)).toBe(true);
    expect(findRawCredentials({ metadata: { barcode: gtin, upc: '036000291452', gtin: '4006381333931' } })).toBeUndefined();
    expect(findRawCredentials({ metadata: { note: gtin } })).toEqual({ kind: 'card', path: 'metadata.note' });
    // Not a GTIN (wrong check digit, 16 digits): a barcode field does not hide a PAN.
    expect(findRawCredentials({ metadata: { barcode: '4111111111111111' } })).toEqual({ kind: 'card', path: 'metadata.barcode' });
  });

  it('catches a routing and account number in a bank-like field, with the ABA checksum', () => {
    expect(passesAbaChecksum('021000021')).toBe(true);
    expect(passesAbaChecksum('021000022')).toBe(false);
    expect(findRawCredentials({ metadata: { bank_details: '021000021 / 12345678' } })).toEqual({ kind: 'bank', path: 'metadata.bank_details' });
    expect(findRawCredentials({ remittanceInfo: 'acct 12345678 rtn 021000021' })).toEqual({ kind: 'bank', path: 'remittanceInfo' });
    expect(findRawCredentials({ account_number: '021000021-000123456789' })).toEqual({ kind: 'bank', path: 'account_number' });
    // A failing checksum, or a field that is not bank-like, is left alone.
    expect(findRawCredentials({ bank_details: '021000022 12345678' })).toBeUndefined();
    expect(findRawCredentials({ notes: '021000021 12345678' })).toBeUndefined();
    expect(findRawCredentials({ bank_account_id: '0190abcd-1234-7567-8901-021000021000' })).toBeUndefined();
  });

  it('walks any depth without recursion', () => {
    let deep: unknown = { notes: '4111111111111111' };
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findRawCredentials(deep)).toEqual({ kind: 'card', path: `${'[0]'.repeat(100_000)}.notes` });
  });

  it('leaves ordinary bodies alone (customer account numbers, order and check numbers, last fours, nulls)', () => {
    for (const body of [
      { name: 'Acme', account_number: 'CUST-000123' },
      { check_number: '1042', po_number: 'PO-2026-00042', external_order_id: '113-1234567-1234567' },
      { card_brand: 'visa', last_four: '4242', exp_month: 12 },
      { cvc: null, routing_number: '' },
      { type: 'card' },
      { order: ['018f0000-0000-7000-8000-000000000001'] },
      { shipping_total: 999999999999.99, quantity: 12.5 },
      [1, 2, 3],
      'text',
      null,
    ]) {
      expect(findRawCredentials(body), JSON.stringify(body)).toBeUndefined();
    }
  });
});
