/**
 * Turns zod failures into the error envelope: the first issue decides the code, `param` names the
 * field the way a client wrote it (`components[2].quantity_per_kit`).
 */
import * as z from 'zod/mini';
import { en } from 'zod/locales';
import { ApiError } from '../errors';

// zod/mini carries no messages of its own: the hints quote zod's English ones.
z.config(en());

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
export function parseOrThrow<S extends z.ZodMiniType>(schema: S, value: unknown, prefix?: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw issueToError(result.error.issues[0], value, prefix);
  return result.data;
}

/** Whether a query schema member takes several values (`expand[]=a&expand[]=b`). */
export function isArraySchema(schema: z.ZodMiniType): boolean {
  let current = schema;
  for (let i = 0; i < 5; i++) {
    if (current instanceof z.ZodMiniArray) return true;
    if (!(current instanceof z.ZodMiniOptional || current instanceof z.ZodMiniDefault || current instanceof z.ZodMiniNullable)) return false;
    current = current.def.innerType as z.ZodMiniType;
  }
  return false;
}

/** Deepest nesting of objects and arrays a request body may have (the body object is level 1). */
export const MAX_JSON_DEPTH = 32;
/** Longest string a request may carry anywhere (schemas cap most fields far lower). */
export const MAX_STRING_LENGTH = 10_000;
/** Largest request body, in bytes: well inside Lambda's 6 MB event limit once the body is escaped into the event. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Why a string cannot be accepted, or undefined. PostgreSQL refuses NUL in text and lone surrogates in UTF-8. */
function textProblem(text: string): string | undefined {
  if (text.length > MAX_STRING_LENGTH) return `must be at most ${MAX_STRING_LENGTH} characters`;
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (!(text as unknown as { isWellFormed(): boolean }).isWellFormed()) return 'must be well-formed Unicode (no unpaired surrogates)';
  return undefined;
}

/** A key as `param` can show it: unpaired surrogates and NUL replaced, cut to 100 characters. */
function displayKey(key: string): string {
  const shown = key.length > 100 ? key.slice(0, 100) : key;
  return (shown as unknown as { toWellFormed(): string }).toWellFormed().replaceAll('\u0000', '\uFFFD');
}

interface Frame {
  value: unknown;
  depth: number;
  parent: Frame | undefined;
  key: string | number | undefined;
}

/** The `param` of a frame: built only when something is refused. */
function pathOf(frame: Frame | undefined, prefix?: string): string {
  const parts: (string | number)[] = [];
  for (let at = frame; at?.key !== undefined; at = at.parent) parts.unshift(typeof at.key === 'string' ? displayKey(at.key) : at.key);
  return formatParam(parts, prefix);
}

/**
 * Refuses what no schema should ever see, before any schema or recursive walk does: nesting deeper
 * than MAX_JSON_DEPTH, strings (values and keys) over MAX_STRING_LENGTH, with NUL or with unpaired
 * surrogates. Iterative, so a hostile nesting depth cannot overflow the stack. 400
 * `parameter_invalid` naming where; the value is never repeated.
 */
export function checkInputValue(value: unknown, prefix?: string): void {
  const stack: Frame[] = [{ value, depth: 0, parent: undefined, key: undefined }];
  while (stack.length) {
    const frame = stack.pop()!;
    const current = frame.value;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) throw invalidAt(pathOf(frame, prefix) || prefix, problem);
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    const depth = frame.depth + 1;
    if (depth > MAX_JSON_DEPTH) throw invalidAt(pathOf(frame, prefix) || prefix, `is nested deeper than ${MAX_JSON_DEPTH} levels`);
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], depth, parent: frame, key: i });
      continue;
    }
    // Keys in order and all of them first (the first bad key is the one named), then the values.
    const keys = Object.keys(current);
    for (const key of keys) {
      const problem = textProblem(key);
      if (problem) throw invalidAt(pathOf({ value: undefined, depth, parent: frame, key }, prefix), `has a key that ${problem}`);
    }
    // String members are checked here, in order and without a frame of their own (most members of
    // most bodies); objects and arrays are walked after them.
    const record = current as Record<string, unknown>;
    for (const key of keys) {
      const member = record[key];
      if (typeof member !== 'string') continue;
      const problem = textProblem(member);
      if (problem) throw invalidAt(pathOf({ value: member, depth, parent: frame, key }, prefix) || prefix, problem);
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      const member = record[keys[i]];
      if (typeof member === 'object' && member !== null) stack.push({ value: member, depth, parent: frame, key: keys[i] });
    }
  }
}

function invalidAt(param: string | undefined, problem: string): ApiError {
  return new ApiError('parameter_invalid', { param: param || undefined, hint: `Invalid ${param || 'request body'}: ${problem}.` });
}
