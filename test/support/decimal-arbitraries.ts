/** fast-check arbitraries for decimal text (money, quantities, rates), as the API receives it. */
import fc from 'fast-check';
import { amount } from '../../shared/money';

/** A decimal string from 0 to `max` with up to `scale` decimals. */
export const decimal = (max: number, scale: number) =>
  fc.integer({ min: 0, max: max * 10 ** scale }).map((n) =>
    amount(n)
      .dividedBy(10 ** scale)
      .toString(),
  );

/** Like `decimal`, but never zero. */
export const positive = (max: number, scale: number) =>
  fc.integer({ min: 1, max: max * 10 ** scale }).map((n) =>
    amount(n)
      .dividedBy(10 ** scale)
      .toString(),
  );
