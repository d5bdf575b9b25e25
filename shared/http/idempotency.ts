/**
 * Idempotency-Key, through Powertools idempotency on DynamoDB.
 *
 * Only the side-effecting unit (validated input → transaction → response) is made idempotent.
 * The record key is scoped to entity + route + header value, so two entities (or two endpoints)
 * never collide; the request's path, query and body are the payload fingerprint, so the same key
 * with different parameters is refused. Records live 24 hours.
 */
import type { Context } from 'aws-lambda';
import { ApiError } from '../errors';
import type { publishCommitted } from '../events/publisher';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** What a mutation produced, stored verbatim so a replay is byte-identical. */
export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  /** Set on replays only (never stored). */
  replayed?: boolean;
}

export interface IdempotentCall {
  /** entity, route and header value: what makes two requests "the same request". */
  scope: string;
  /** path params, query and body: a replay must carry the same. */
  fingerprint: unknown;
  /**
   * Set for an operation of a batch: its record, once the work succeeded, is handed here rather
   * than saved, and saved only if the batch commits (released if it rolls back).
   */
  holdRecord?: (record: HeldRecord) => void;
}

/** An operation's idempotency record, reserved (in progress) while its batch has not committed. */
export interface HeldRecord {
  /** Saves the operation's answer under its key: once the batch has committed. */
  save(): Promise<void>;
  /** Deletes the reservation: the batch rolled back, so a retry runs the operation again. */
  release(): Promise<void>;
}

/** Runs a request's work at most once per scope. */
type RunIdempotent = (routeId: string, call: IdempotentCall, lambdaContext: Context, execute: () => Promise<StoredResponse>) => Promise<StoredResponse>;

/**
 * The layer a mutating route's handler is built with (`lambdaHandler(route, idempotency)`,
 * shared/http/idempotent.ts): its Idempotency-Key, and the publishing of the events it commits.
 * Reads take neither, so their bundles carry neither, nor the SDK clients behind them.
 */
export interface WriteLayer {
  run: RunIdempotent;
  publish: typeof publishCommitted;
}

export function validateIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError('idempotency_key_invalid', { param: 'Idempotency-Key' });
  }
  return key;
}
