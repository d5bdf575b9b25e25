/**
 * The idempotency store: Powertools idempotency on DynamoDB. Imported lazily by the handler stack,
 * only when a request carries an Idempotency-Key; the records go to DynamoDB through
 * dynamodb-persistence.ts, which calls DynamoDB without the AWS SDK's client.
 */
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import type { Context } from 'aws-lambda';
import { ApiError } from '../errors';
import { IDEMPOTENCY_TTL_SECONDS, type IdempotentCall, type StoredResponse } from './idempotency';
import { lambdaConnection, type DynamoDBConnection } from './dynamodb-items';
import { DynamoDBPersistence } from './dynamodb-persistence';

type CallWithWork = IdempotentCall & { execute: () => Promise<StoredResponse> };

interface RouteExecutor {
  config: IdempotencyConfig;
  run: (call: CallWithWork) => Promise<StoredResponse>;
}

const executors = new Map<string, RouteExecutor>();

function persistenceStore(): DynamoDBPersistence {
  const tableName = process.env.IDEMPOTENCY_TABLE_NAME;
  if (!tableName) throw new Error('IDEMPOTENCY_TABLE_NAME is not set');
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  // Local runs point at the embedded DynamoDB-API store; AWS uses the region's endpoint and the role.
  const local: DynamoDBConnection | undefined = endpoint
    ? { endpoint, region: process.env.AWS_REGION ?? 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
    : undefined;
  return new DynamoDBPersistence(tableName, () => local ?? lambdaConnection());
}

/**
 * Runs `execute` at most once per scope. One persistence layer per route and store: Powertools
 * keeps per-instance configuration, the local gateway hosts every route in one process, and a
 * local restart in the same process (tests) brings the store back on another endpoint.
 */
export async function runIdempotent(
  routeId: string,
  call: IdempotentCall,
  lambdaContext: Context,
  execute: () => Promise<StoredResponse>,
): Promise<StoredResponse> {
  const executorKey = `${routeId} ${process.env.IDEMPOTENCY_TABLE_NAME} ${process.env.DYNAMODB_ENDPOINT ?? ''}`;
  let executor = executors.get(executorKey);
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
    executors.set(executorKey, executor);
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
