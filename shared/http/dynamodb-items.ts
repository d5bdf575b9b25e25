/**
 * The four item calls of DynamoDB's JSON protocol that the idempotency store makes (GetItem,
 * PutItem, UpdateItem, DeleteItem): one POST each, signed with Signature Version 4.
 *
 * Not `@aws-sdk/client-dynamodb`: evaluating the SDK client and resolving its configuration on the
 * first call took about 100 ms of the cold start of every write that carried an Idempotency-Key,
 * for four calls on one table. This module loads in about a millisecond. It does what the SDK
 * does for these calls: credentials from the Lambda environment (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), the regional endpoint, kept-alive connections, and
 * three attempts with jittered backoff on throttling, 5xx and network errors.
 */
import type { Agent, IncomingMessage, RequestOptions } from 'node:http';
import { lambdaSigningContext, signedHeaders, type AwsSigningContext } from '../aws-signing';

export interface DynamoDBConnection extends AwsSigningContext {
  /** https://dynamodb.<region>.amazonaws.com on AWS; a local DynamoDB-API store's address otherwise. */
  endpoint: string;
}

export type ItemOperation = 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem';

/** An error DynamoDB answered with: `type` is the exception's name (ConditionalCheckFailedException, ...). */
export class DynamoDBError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly statusCode: number,
    /** The whole error body: a failed condition check carries `Item` when ReturnValuesOnConditionCheckFailure asks. */
    readonly body: Record<string, unknown>,
  ) {
    super(message);
    this.name = type;
  }
}

/** The connection a Lambda function has: its region and its role's credentials, from the environment. */
export function lambdaConnection(env: NodeJS.ProcessEnv = process.env): DynamoDBConnection {
  const context = lambdaSigningContext(env);
  const domain = context.region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
  return { endpoint: `https://dynamodb.${context.region}.${domain}`, ...context };
}

const MAX_ATTEMPTS = 3;
const ATTEMPT_TIMEOUT_MS = 5_000;
const BACKOFF_BASE_MS = 100;
/** Answers worth another attempt besides any 5xx (the SDK's throttling list for DynamoDB). */
const RETRYABLE_TYPES = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded', 'TransactionInProgressException']);
const RETRYABLE_NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN']);

interface Transport {
  request: typeof import('node:http').request;
  agent: Agent;
}
const transports = new Map<string, Promise<Transport>>();

/** node:http or node:https, loaded when first needed (a write without an Idempotency-Key needs neither). */
function transport(protocol: string): Promise<Transport> {
  let loaded = transports.get(protocol);
  if (!loaded) {
    loaded = (protocol === 'https:' ? import('node:https') : import('node:http')).then((module) => ({
      request: module.request,
      agent: new module.Agent({ keepAlive: true }),
    }));
    transports.set(protocol, loaded);
  }
  return loaded;
}

function send(url: URL, options: RequestOptions, body: string, { request }: Transport): Promise<{ statusCode: number; text: string }> {
  return new Promise((resolve, reject) => {
    const call = request(url, options, (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ statusCode: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    call.setTimeout(ATTEMPT_TIMEOUT_MS, () => call.destroy(Object.assign(new Error('DynamoDB request timed out'), { code: 'ETIMEDOUT' })));
    call.on('error', reject);
    call.end(body);
  });
}

const stringOf = (value: unknown) => (typeof value === 'string' ? value : undefined);

function errorOf(statusCode: number, text: string): DynamoDBError {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  // `com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException` names the exception after '#'.
  const type = (stringOf(body.__type) ?? `HttpError${statusCode}`).split('#').pop() as string;
  const message = stringOf(body.message) ?? stringOf(body.Message) ?? `DynamoDB answered ${statusCode}`;
  return new DynamoDBError(type, message, statusCode, body);
}

const isRetryable = (error: unknown) =>
  error instanceof DynamoDBError
    ? error.statusCode >= 500 || RETRYABLE_TYPES.has(error.type)
    : RETRYABLE_NETWORK_CODES.has((error as NodeJS.ErrnoException)?.code ?? '');

/** Calls `operation` with `input` (the operation's JSON request) and returns its JSON response. */
export async function callDynamoDB<Output = Record<string, unknown>>(connection: DynamoDBConnection, operation: ItemOperation, input: object): Promise<Output> {
  const url = new URL(connection.endpoint);
  const body = JSON.stringify(input);
  const channel = await transport(url.protocol);
  for (let attempt = 1; ; attempt++) {
    const headers = signedHeaders(
      url,
      {
        'content-type': 'application/x-amz-json-1.0',
        'content-length': String(Buffer.byteLength(body)),
        'x-amz-target': `DynamoDB_20120810.${operation}`,
      },
      body,
      connection,
      new Date(),
      'dynamodb',
    );
    try {
      const { statusCode, text } = await send(url, { method: 'POST', path: '/', headers, agent: channel.agent }, body, channel);
      if (statusCode === 200) return JSON.parse(text) as Output;
      throw errorOf(statusCode, text);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryable(error)) throw error;
      // Full jitter: a random wait up to 100 ms, then 200 ms.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * BACKOFF_BASE_MS * 2 ** (attempt - 1)));
    }
  }
}
