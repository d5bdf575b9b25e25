/**
 * The idempotency store: Powertools idempotency on DynamoDB, through its DynamoDBPersistenceLayer
 * and the container's DynamoDB client (the table in infra/constructs/idempotency-store.ts).
 * Imported lazily by the handler stack, only when a request carries an Idempotency-Key.
 */
import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { DynamoDBClient, DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import type { Context } from 'aws-lambda';
import { awsClient } from '../aws-clients';
import { ApiError } from '../errors';
import { logger } from '../powertools';
import { IDEMPOTENCY_TTL_SECONDS, type IdempotentCall, type StoredResponse } from './idempotency';

type CallWithWork = IdempotentCall & { execute: () => Promise<StoredResponse> };

interface RouteExecutor {
  config: IdempotencyConfig;
  run: (call: CallWithWork) => Promise<StoredResponse>;
}

const executors = new Map<string, RouteExecutor>();

/**
 * Powertools' DynamoDB layer, with one change: the success record of an operation of a batch is
 * handed to the batch (IdempotentCall.holdRecord) instead of saved, so it is written only once the
 * batch commits. Until then the key stays reserved (in progress), so a concurrent retry is told
 * to wait; a failure of the operation releases it as Powertools always does.
 */
type JSONValue = Parameters<DynamoDBPersistenceLayer['saveSuccess']>[0];
class BatchAwarePersistenceLayer extends DynamoDBPersistenceLayer {
  public override async saveSuccess(data: JSONValue, result: JSONValue): Promise<void> {
    const hold = (data as unknown as IdempotentCall).holdRecord;
    if (!hold) return super.saveSuccess(data, result);
    hold({ save: () => super.saveSuccess(data, result), release: () => super.deleteRecord(data) });
  }
}

function persistenceStore(): DynamoDBPersistenceLayer {
  const tableName = process.env.IDEMPOTENCY_TABLE_NAME;
  if (!tableName) throw new Error('IDEMPOTENCY_TABLE_NAME is not set');
  return new BatchAwarePersistenceLayer({
    tableName,
    awsSdkV3Client: awsClient((config) => new DynamoDBClient(config), 'AWS_ENDPOINT_URL_DYNAMODB'),
  });
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
  const executorKey = `${routeId} ${process.env.IDEMPOTENCY_TABLE_NAME} ${process.env.AWS_ENDPOINT_URL_DYNAMODB ?? ''}`;
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
  let outcome: { response: StoredResponse } | { error: unknown } | undefined;
  const executeOnce = async () => {
    try {
      const response = await execute();
      outcome = { response };
      return response;
    } catch (error) {
      outcome = { error };
      throw error;
    }
  };
  try {
    return await executor.run({ ...call, execute: executeOnce });
  } catch (error) {
    // The request's own failure, passed on by Powertools once it released the key.
    if (outcome && 'error' in outcome && outcome.error === error) throw error;
    const name = (error as Error)?.name;
    if (name === 'IdempotencyAlreadyInProgressError') {
      throw new ApiError('idempotency_key_in_use', { param: 'Idempotency-Key', headers: { 'Retry-After': '1' } });
    }
    if (name === 'IdempotencyValidationError') throw new ApiError('idempotency_key_reused', { param: 'Idempotency-Key' });
    if (!isStoreFault(error)) throw error;
    // The store failed after the work ran: the work's own answer is the truth (its writes are committed,
    // or its error wrote nothing). Only the record is missing or left in progress until it expires.
    if (outcome) {
      logger.error('idempotency record not saved after the request ran', { routeId, error });
      if ('response' in outcome) return outcome.response;
      throw outcome.error;
    }
    // Before the work ran: nothing was changed, and a retry under the same key is safe.
    throw new ApiError('service_unavailable', {
      hint: 'The idempotency store could not be reached, so the request was not run; retry with the same Idempotency-Key after the delay in Retry-After.',
      headers: { 'Retry-After': '1' },
      cause: error,
    });
  }
}

/** A failure of the store itself (after its retries), not of the request or of this code. */
function isStoreFault(error: unknown): boolean {
  const name = (error as Error)?.name;
  return (
    name === 'IdempotencyPersistenceLayerError' ||
    name === 'IdempotencyInconsistentStateError' ||
    error instanceof DynamoDBServiceException ||
    typeof (error as NodeJS.ErrnoException)?.syscall === 'string'
  );
}
