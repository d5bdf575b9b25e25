/**
 * The one error type of the API and its closed catalog of codes.
 *
 * Every failure a client can see is an ApiError carrying a code from ERROR_CATALOG. The catalog
 * decides the HTTP status, the envelope's `type`, the broad `error` key and a default hint; the
 * OpenAPI document lists it verbatim, so a code that is not here cannot be thrown.
 */

export const ERROR_TYPES = [
  'validation_error',
  'permission_error',
  'not_found',
  'conflict',
  'rate_limit',
  'internal',
  'expand_error',
  'not_implemented',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

interface CatalogEntry {
  status: number;
  type: ErrorType;
  /** The broad machine-readable key (`error`); `code` is the precise one. */
  error: string;
  hint: string;
}

const entry = (status: number, type: ErrorType, error: string, hint: string): CatalogEntry => ({ status, type, error, hint });

export const ERROR_CATALOG = {
  // 400: the request itself is wrong
  invalid_json: entry(400, 'validation_error', 'validation_error', 'The request body is not valid JSON.'),
  parameter_missing: entry(400, 'validation_error', 'validation_error', 'A required parameter is missing.'),
  parameter_invalid: entry(400, 'validation_error', 'validation_error', 'A parameter has an invalid value.'),
  parameter_unknown: entry(400, 'validation_error', 'validation_error', 'The request contains a parameter this endpoint does not accept.'),
  idempotency_key_invalid: entry(400, 'validation_error', 'validation_error', 'The Idempotency-Key header must be 1 to 255 printable characters.'),
  expand_error: entry(400, 'expand_error', 'expand_error', 'This expand value is not allowed for this resource.'),
  // 401: who is calling cannot be established
  api_key_missing: entry(401, 'permission_error', 'authentication_failed', 'Send your API key as `Authorization: Bearer <key>`.'),
  api_key_malformed: entry(401, 'permission_error', 'authentication_failed', 'The API key is not of the form bo_<live|test>_ent_<entity_code>_<secret>.'),
  api_key_invalid: entry(401, 'permission_error', 'authentication_failed', 'The API key is not recognised.'),
  api_key_revoked: entry(401, 'permission_error', 'authentication_failed', 'The API key has been revoked.'),
  api_key_expired: entry(401, 'permission_error', 'authentication_failed', 'The API key has expired; use the key that replaced it.'),
  api_key_mode_not_allowed: entry(401, 'permission_error', 'authentication_failed', 'This server accepts test-mode keys only.'),
  // 403: known caller, not allowed
  insufficient_scope: entry(403, 'permission_error', 'insufficient_scope', 'The API key lacks the scope this endpoint requires.'),
  insufficient_permissions: entry(
    403,
    'permission_error',
    'insufficient_permissions',
    'The user behind this API key lacks the permission this action requires.',
  ),
  // 404
  not_found: entry(404, 'not_found', 'not_found', 'No such record in this entity.'),
  route_not_found: entry(404, 'not_found', 'not_found', 'No endpoint matches this method and path.'),
  // 409: state conflicts
  location_name_taken: entry(409, 'conflict', 'conflict', 'Another location of this entity already has this name.'),
  location_is_default: entry(
    409,
    'conflict',
    'conflict',
    'The default location cannot be deleted or deactivated while other locations exist; make another location the default first.',
  ),
  manufacturer_name_taken: entry(409, 'conflict', 'conflict', 'Another manufacturer of this entity already has this name.'),
  manufacturer_in_use: entry(
    409,
    'conflict',
    'conflict',
    'Products still reference this manufacturer; reassign or clear the manufacturer on those products first.',
  ),
  api_key_already_revoked: entry(409, 'conflict', 'conflict', 'This API key is already revoked.'),
  idempotency_key_in_use: entry(
    409,
    'conflict',
    'conflict',
    'A request with this Idempotency-Key is still being processed; retry after the delay in Retry-After.',
  ),
  // 412, 413, 415
  precondition_failed: entry(412, 'conflict', 'precondition_failed', 'The resource has changed since the ETag in If-Match was issued; fetch it again.'),
  request_too_large: entry(413, 'validation_error', 'validation_error', 'The request body is too large.'),
  unsupported_media_type: entry(415, 'validation_error', 'validation_error', 'Send request bodies as application/json.'),
  // 422: well-formed but not processable
  idempotency_key_reused: entry(
    422,
    'validation_error',
    'idempotency_error',
    'This Idempotency-Key was used with different parameters; use a new key for a new request.',
  ),
  // 429, 500
  rate_limit_exceeded: entry(429, 'rate_limit', 'rate_limit', 'Too many requests; retry after the delay in Retry-After.'),
  internal_error: entry(500, 'internal', 'internal', 'Something went wrong on our side; quote the request_id to support.'),
} as const satisfies Record<string, CatalogEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export interface ApiErrorOptions {
  hint?: string;
  param?: string;
  required?: string;
  /** Extra envelope members a code documents (e.g. `references`, `current_status`). */
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly options: ApiErrorOptions;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    super(options.hint ?? ERROR_CATALOG[code].hint, { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_CATALOG[code].status;
    this.options = options;
  }

  /** The error envelope of the spec's Errors part. */
  toEnvelope(requestId: string): ErrorEnvelope {
    const { type, error, hint } = ERROR_CATALOG[this.code];
    // Documented extras first: they can add members but never overwrite the envelope's own.
    return {
      ...this.options.details,
      error,
      code: this.code,
      type,
      hint: this.options.hint ?? hint,
      ...(this.options.param !== undefined && { param: this.options.param }),
      ...(this.options.required !== undefined && { required: this.options.required }),
      request_id: requestId,
    };
  }
}

export interface ErrorEnvelope {
  error: string;
  code: string;
  type: ErrorType;
  hint: string;
  param?: string;
  required?: string;
  request_id: string;
  [extra: string]: unknown;
}

export const notFound = (param = 'id') => new ApiError('not_found', { param });
