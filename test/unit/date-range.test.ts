import { describe, expect, it } from 'vitest';
import { isoDate, timestamp } from '../../shared/schemas/common';

describe('dates PostgreSQL can store and a response can show', () => {
  it.each([
    ['0001-01-01T00:00:00Z', true],
    ['2024-02-29T12:00:00.123456789+05:45', true],
    ['2000-01-01T00:00:00+14:00', true],
    ['2000-01-01T00:00:00-12:00', true],
    ['0000-06-01T00:00:00Z', false],
    ['0001-01-01T00:00:00+01:00', false],
    ['9999-12-31T23:59:59.999999999Z', false],
    ['9999-12-31T23:00:00-05:00', false],
    ['2000-02-29T12:00:00+23:59', false],
    ['2000-01-01T00:00:00-12:30', false],
  ])('timestamp %s: %s', (value, accepted) => {
    expect(timestamp().safeParse(value).success).toBe(accepted);
  });

  it('a date of year 0000 is refused; 0001 and 9999 are dates', () => {
    expect(isoDate().safeParse('0000-01-01').success).toBe(false);
    expect(isoDate().safeParse('0001-01-01').success).toBe(true);
    expect(isoDate().safeParse('9999-12-31').success).toBe(true);
  });
});
