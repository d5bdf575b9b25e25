import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { amount, decimalInput, round, sum, toFixedString, toJsonNumber } from '../../shared/money';

describe('money', () => {
  it('rounds half away from zero', () => {
    expect(round('1.005').toFixed()).toBe('1.01');
    expect(round('-1.005').toFixed()).toBe('-1.01');
    expect(round('2.675').toFixed()).toBe('2.68'); // 2.675 is 2.67499.. as a float; as a decimal it is a tie
    expect(round('0.00005', 4).toFixed()).toBe('0.0001');
  });

  it('adds without float error', () => {
    expect(sum([0.1, 0.2]).toFixed()).toBe('0.3');
    expect(toJsonNumber(sum(['19.99', '0.01', 0.1]))).toBe(20.1);
    expect(toFixedString('12.5', 4)).toBe('12.5000');
  });

  it('sums of cents are exact whatever the order (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -10_000_000, max: 10_000_000 }), { maxLength: 200 }), (cents) => {
        const values = cents.map((c) => amount(c).div(100));
        const forward = sum(values);
        const backward = sum([...values].reverse());
        expect(forward.eq(backward)).toBe(true);
        expect(forward.mul(100).toFixed()).toBe(String(cents.reduce((a, b) => a + b, 0)));
      }),
    );
  });

  it('rounding is idempotent and moves at most half a unit (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 6 }), (units, scale) => {
        const value = amount(units).div(1_000_000);
        const rounded = round(value, scale);
        expect(round(rounded, scale).eq(rounded)).toBe(true);
        expect(
          rounded
            .minus(value)
            .abs()
            .lte(
              amount(1)
                .div(10 ** scale)
                .div(2),
            ),
        ).toBe(true);
      }),
    );
  });

  it('decimalInput accepts numbers and numeric strings within scale and bounds, as decimal text', () => {
    const schema = decimalInput({ scale: 2, min: 0 });
    expect(schema.parse(19.99)).toBe('19.99');
    expect(schema.parse('0.1')).toBe('0.1');
    expect(schema.safeParse(1.001).success).toBe(false);
    expect(schema.safeParse(-1).success).toBe(false);
    expect(schema.safeParse('1e3').success).toBe(false);
    expect(schema.safeParse(Number.NaN).success).toBe(false);
    expect(z.object({ q: decimalInput({ scale: 4, min: 0, exclusiveMin: true }) }).safeParse({ q: 0 }).success).toBe(false);
  });

  it('decimalInput refuses anything that is not a plain decimal with one issue, never throwing or repeating the value', () => {
    const schema = z.object({ shipping_total: decimalInput({ scale: 2, min: 0 }) });
    const refused: unknown[] = ['abc', '12abc', 'NaN', 'Infinity', '-Infinity', '1e5', '1E-2', '0x10', ' 1', '1 ', '', '.5', '5.', '+1', '1,5'];
    refused.push('9'.repeat(21), `1.${'0'.repeat(21)}`, '9'.repeat(100_000), Number.POSITIVE_INFINITY, Number.NaN, 1e21, 4242424242424242, true, [], {});
    for (const value of refused) {
      const result = schema.safeParse({ shipping_total: value });
      expect(result.success, String(value).slice(0, 30)).toBe(false);
      expect(result.error!.issues).toHaveLength(1);
      expect(result.error!.issues[0].path).toEqual(['shipping_total']);
      expect(JSON.stringify(result.error!.issues)).not.toMatch(/4242|abc|9{13}/);
    }
  });

  it('decimalInput accepts every decimal of up to 20 digits either side within bounds, exactly (property)', () => {
    const schema = decimalInput({ scale: 4, min: -1e12, max: 1e12 });
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 16n), max: 10n ** 16n }), (units) => {
        const digits = (units < 0n ? -units : units).toString().padStart(5, '0');
        const text = `${units < 0n ? '-' : ''}${digits.slice(0, -4)}.${digits.slice(-4)}`;
        expect(schema.parse(text)).toBe(amount(text).toString());
      }),
    );
  });
});

describe('toJsonNumber fast path', () => {
  it('gives the same number as rounding the decimal, for plain database strings', () => {
    const digits = (max: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: max }).map((d) => d.join(''));
    fc.assert(
      fc.property(digits(19), fc.option(digits(10)), fc.integer({ min: 0, max: 10 }), (whole, fraction, scale) => {
        const text = fraction === null ? whole : `${whole}.${fraction}`;
        expect(Object.is(toJsonNumber(text, scale), round(text, scale).toNumber())).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
