/**
 * Idempotency-Key, through Powertools idempotency on DynamoDB.
 *
 * Only the side-effecting unit (validated input → transaction → response) is made idempotent.
 * The record key is scoped to entity + route + header value, so two entities (or two endpoints)
 * never collide; the request's path, query and body are the payload fingerprint, so the same key
 * with different parameters is refused. Records live 24 hours.
 */
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Context } from 'aws-lambda';
import { ApiError } from './errors';

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
}

type CallWithWork = IdempotentCall & { execute: () => Promise<StoredResponse> };

interface RouteExecutor {
  config: IdempotencyConfig;
  run: (call: CallWithWork) => Promise<StoredResponse>;
}

const executors = new Map<string, RouteExecutor>();

function persistenceStore(): DynamoDBPersistenceLayer {
  const tableName = process.env.IDEMPOTENCY_TABLE_NAME;
  if (!tableName) throw new Error('IDEMPOTENCY_TABLE_NAME is not set');
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  return new DynamoDBPersistenceLayer({
    tableName,
    // Local runs point at the embedded DynamoDB-API store; AWS uses the default endpoint.
    ...(endpoint && {
      clientConfig: {
        endpoint,
        region: process.env.AWS_REGION ?? 'local',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      },
    }),
  });
}

export function validateIdempotencyKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError('idempotency_key_invalid', { param: 'Idempotency-Key' });
  }
  return key;
}

/**
 * Runs `execute` at most once per scope. One persistence layer per route: Powertools keeps
 * per-instance configuration, and the local gateway hosts every route in one process.
 */
export async function runIdempotent(
  routeId: string,
  call: IdempotentCall,
  lambdaContext: Context,
  execute: () => Promise<StoredResponse>,
): Promise<StoredResponse> {
  let executor = executors.get(routeId);
  if (!executor) {
    const config = new IdempotencyConfig({
      eventKeyJmesPath: 'scope',
      payloadValidationJmesPath: 'fingerprint',
      expiresAfterSeconds: IDEMPOTENCY_TTL_SECONDS,
      throwOnNoIdempotencyKey: true,
      responseHook: (response) => ({ ...(response as object), replayed: true }),
    });
    const run = makeIdempotent(async (withWork: CallWithWork) => withWork.execute(), {
      persistenceStore: persistenceStore(),
      config,
      keyPrefix: `bizops.${routeId}`,
    });
    executor = { config, run };
    executors.set(routeId, executor);
  }
  // Remaining time bounds how long an in-flight record blocks a retry after a crash.
  executor.config.registerLambdaContext(lambdaContext);
  try {
    return await executor.run({ ...call, execute });
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === 'IdempotencyAlreadyInProgressError') {
      throw new ApiError('idempotency_key_in_use', { param: 'Idempotency-Key', headers: { 'Retry-After': '1' } });
    }
    if (name === 'IdempotencyValidationError') throw new ApiError('idempotency_key_reused', { param: 'Idempotency-Key' });
    throw error;
  }
}
