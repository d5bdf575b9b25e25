import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { ApiError } from '../../shared/errors';
import { log, scrubText } from '../../shared/log';

const PAN = '4111111111111111';

/** The lines log writes while `run` runs. */
function captured(run: () => void): string {
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
  vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line));
  run();
  vi.restoreAllMocks();
  return lines.join('\n');
}

afterEach(() => vi.restoreAllMocks());

describe('log', () => {
  it('writes an error as name, scrubbed message, the safe pg members and stack frames, never the value', () => {
    const unique = Object.assign(new Error(`duplicate key value violates unique constraint "products_sku_unique"`), {
      code: '23505',
      constraint: 'products_sku_unique',
      table: 'products',
      detail: `Key (entity_id, lower(sku))=(0190abcd-0000-7000-8000-000000000001, ${PAN}) already exists.`,
      where: `SQL statement "INSERT ... VALUES ('${PAN}')"`,
    });
    const syntax = Object.assign(new Error(`invalid input syntax for type uuid: "${PAN}"`), { code: '22P02' });
    const decimal = new Error(`[DecimalError] Invalid argument: ${PAN}abc`);
    const zodError = z.object({ sku: z.string().max(3) }).safeParse({ sku: PAN }).error!;
    const line = captured(() =>
      log.error('unhandled error', {
        requestId: 'req_1',
        error: new ApiError('internal_error', { cause: unique }),
        syntax,
        decimal,
        zodError,
        other: new Error('wrapped', { cause: { value: PAN } }),
      }),
    );
    expect(line).not.toContain('4111');
    const parsed = JSON.parse(line) as Record<string, Record<string, unknown>>;
    expect(parsed.error.cause).toMatchObject({ code: '23505', constraint: 'products_sku_unique', table: 'products' });
    expect(parsed.error.cause).not.toHaveProperty('detail');
    expect((parsed.error.cause as { message: string }).message).toBe('duplicate key value violates unique constraint "…"');
    expect(parsed.syntax.message).toBe('invalid input syntax for type uuid: [redacted]');
    expect(parsed.decimal.message).toBe('[DecimalError] Invalid argument: [redacted]');
    expect(String(parsed.error.stack)).toMatch(/^\s+at /);
    expect(parsed.other.cause).toBe('[object]');
  });

  it('scrubText masks quoted text and runs of four or more digits, and leaves words alone', () => {
    expect(scrubText(`value ${PAN} and 4111 1111 1111 1111 and 12`)).toBe('value # and # and 12');
    expect(scrubText(`column "sku" of relation 'x'`)).toBe('column "…" of relation \'…\'');
    expect(scrubText('Cannot read properties of undefined')).toBe('Cannot read properties of undefined');
  });
});
