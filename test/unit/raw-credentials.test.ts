import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findRawCredentials, looksLikeCardNumber, passesLuhn } from '../../shared/http/raw-credentials';

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

  it('leaves ordinary bodies alone (customer account numbers, order and check numbers, last fours, nulls)', () => {
    for (const body of [
      { name: 'Acme', account_number: '4111111111111111' },
      { check_number: '4111111111111111', po_number: '4242424242424242', external_order_number: '4242424242424242' },
      { card_brand: 'visa', last_four: '4242', exp_month: 12 },
      { cvc: null, routing_number: '' },
      { type: 'card' },
      { order: ['018f0000-0000-7000-8000-000000000001'] },
      [1, 2, 3],
      'text',
      null,
    ]) {
      expect(findRawCredentials(body), JSON.stringify(body)).toBeUndefined();
    }
  });
});
