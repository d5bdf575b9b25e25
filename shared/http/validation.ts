/**
 * Turns zod failures into the error envelope: the first issue decides the code, `param` names the
 * field the way a client wrote it (`components[2].quantity_per_kit`).
 */
import { z } from 'zod';
import { ApiError } from '../errors';

export function formatParam(path: readonly PropertyKey[], prefix?: string): string {
  let out = prefix ?? '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Zod issues do not carry the offending input by default, so the caller passes the parsed value. */
function issueToError(issue: z.core.$ZodIssue, input: unknown, prefix?: string): ApiError {
  if (issue.code === 'unrecognized_keys') {
    const param = formatParam([...issue.path, issue.keys[0]], prefix);
    return new ApiError('parameter_unknown', { param, hint: `Received unknown parameter: ${param}.` });
  }
  const param = formatParam(issue.path, prefix) || prefix || undefined;
  // Whatever the schema's shape (a union for "number or numeric string", say), an absent value is
  // missing; a custom rule that names an absent field (one of two must be sent) explains itself.
  if (issue.code !== 'custom' && issue.path.length > 0 && valueAt(input, issue.path) === undefined) {
    return new ApiError('parameter_missing', { param, hint: `Missing required parameter: ${param}.` });
  }
  return new ApiError('parameter_invalid', { param, hint: `Invalid ${param ?? 'request'}: ${issue.message}.` });
}

/** Parses `value` with `schema` or throws the ApiError for its first issue. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, prefix?: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw issueToError(result.error.issues[0], value, prefix);
  return result.data;
}

/** Whether a query schema member takes several values (`expand[]=a&expand[]=b`). */
export function isArraySchema(schema: z.ZodType): boolean {
  let current: z.ZodType = schema;
  for (let i = 0; i < 5; i++) {
    if (current instanceof z.ZodArray) return true;
    const inner = (current as unknown as { unwrap?: () => z.ZodType }).unwrap;
    if (current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodNullable) {
      current = inner!.call(current);
    } else return false;
  }
  return false;
}
