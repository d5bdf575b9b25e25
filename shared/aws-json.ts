/**
 * Calls to AWS services over their JSON protocol: one signed POST per call (Signature Version 4,
 * aws-signing.ts). The services a function calls on its way to its first answer go through here:
 * DynamoDB for the idempotency records (shared/http/dynamodb-persistence.ts), EventBridge for the
 * events a write publishes after its commit (shared/events/publisher.ts) and Secrets Manager for
 * the Stripe key of the routes that charge cards (shared/payments/stripe-processor.ts).
 *
 * Not the SDK's clients: evaluating one and resolving its configuration on the first call took
 * about 80–130 ms of the cold start of the request that needed it (every write, for EventBridge),
 * for one or two operations each. This module loads in about a millisecond. It does what the SDK
 * does for these calls: credentials from the Lambda environment (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), the regional endpoint, kept-alive connections, and
 * three attempts with jittered backoff on throttling, 5xx and network errors.
 */
import type { Agent, IncomingMessage, RequestOptions } from 'node:http';
import { lambdaSigningContext, signedHeaders, type AwsSigningContext } from './aws-signing';

/** A service's JSON protocol: the name requests are signed for, and what X-Amz-Target and Content-Type carry. */
export interface AwsJsonService {
  /** The endpoint's first label and the signing name: `dynamodb`, `events`, `secretsmanager`. */
  name: string;
  /** `DynamoDB_20120810`, `AWSEvents`, `secretsmanager`: the target is `<prefix>.<operation>`. */
  targetPrefix: string;
  protocol: '1.0' | '1.1';
  /** The variable that points the calls at a local stand-in instead (the embedded store, a benchmark's, a test's). */
  endpointVariable: string;
}

/** DynamoDB: the idempotency records (shared/http/dynamodb-persistence.ts). */
export const DYNAMODB: AwsJsonService = { name: 'dynamodb', targetPrefix: 'DynamoDB_20120810', protocol: '1.0', endpointVariable: 'DYNAMODB_ENDPOINT' };
/** EventBridge: the events a write publishes after its commit (shared/events/publisher.ts). */
export const EVENTBRIDGE: AwsJsonService = { name: 'events', targetPrefix: 'AWSEvents', protocol: '1.1', endpointVariable: 'EVENTBRIDGE_ENDPOINT' };
/** Secrets Manager: the Stripe key of the routes that charge cards (shared/payments/stripe-processor.ts). */
export const SECRETS_MANAGER: AwsJsonService = {
  name: 'secretsmanager',
  targetPrefix: 'secretsmanager',
  protocol: '1.1',
  endpointVariable: 'SECRETS_MANAGER_ENDPOINT',
};

export interface AwsConnection extends AwsSigningContext {
  /** https://<service>.<region>.amazonaws.com on AWS; a local stand-in's address otherwise. */
  endpoint: string;
}

/** An error the service answered with: `type` is the exception's name (ConditionalCheckFailedException, ...). */
export class AwsServiceError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly statusCode: number,
    /** The whole error body: DynamoDB's failed condition check carries `Item` when ReturnValuesOnConditionCheckFailure asks. */
    readonly body: Record<string, unknown>,
  ) {
    super(message);
    this.name = type;
  }
}

/** The connection a Lambda function has to `service`: its region's endpoint and its role's credentials, from the environment. */
export function lambdaConnection(service: AwsJsonService, env: NodeJS.ProcessEnv = process.env): AwsConnection {
  const context = lambdaSigningContext(env);
  const domain = context.region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com';
  return { endpoint: `https://${service.name}.${context.region}.${domain}`, ...context };
}

/**
 * Where this process calls `service`: the local stand-in its endpoint variable names (with
 * placeholder credentials, which a stand-in does not check), or else the Lambda function's connection.
 */
export function serviceConnection(service: AwsJsonService, env: NodeJS.ProcessEnv = process.env): AwsConnection {
  const endpoint = env[service.endpointVariable];
  if (!endpoint) return lambdaConnection(service, env);
  return { endpoint, region: env.AWS_REGION ?? 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
}

const MAX_ATTEMPTS = 3;
const ATTEMPT_TIMEOUT_MS = 5_000;
const BACKOFF_BASE_MS = 100;
/** Answers worth another attempt besides any 5xx (the SDK's throttling list). */
const RETRYABLE_TYPES = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded', 'TransactionInProgressException']);
const RETRYABLE_NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN']);

interface Transport {
  request: typeof import('node:http').request;
  agent: Agent;
}
const transports = new Map<string, Promise<Transport>>();

/** node:http or node:https, loaded when first needed (a read calls no AWS service). */
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
    call.setTimeout(ATTEMPT_TIMEOUT_MS, () => call.destroy(Object.assign(new Error('AWS request timed out'), { code: 'ETIMEDOUT' })));
    call.on('error', reject);
    call.end(body);
  });
}

const stringOf = (value: unknown) => (typeof value === 'string' ? value : undefined);

function errorOf(statusCode: number, text: string): AwsServiceError {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object') body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  // `com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException` names the exception after '#'.
  const type = (stringOf(body.__type) ?? `HttpError${statusCode}`).split('#').pop() as string;
  const message = stringOf(body.message) ?? stringOf(body.Message) ?? `the service answered ${statusCode}`;
  return new AwsServiceError(type, message, statusCode, body);
}

const isRetryable = (error: unknown) =>
  error instanceof AwsServiceError
    ? error.statusCode >= 500 || RETRYABLE_TYPES.has(error.type)
    : RETRYABLE_NETWORK_CODES.has((error as NodeJS.ErrnoException)?.code ?? '');

/** Calls `operation` of `service` with `input` (the operation's JSON request) and returns its JSON response. */
export async function callAwsJson<Output = Record<string, unknown>>(
  connection: AwsConnection,
  service: AwsJsonService,
  operation: string,
  input: object,
): Promise<Output> {
  const url = new URL(connection.endpoint);
  const body = JSON.stringify(input);
  const channel = await transport(url.protocol);
  for (let attempt = 1; ; attempt++) {
    const headers = signedHeaders(
      url,
      {
        'content-type': `application/x-amz-json-${service.protocol}`,
        'content-length': String(Buffer.byteLength(body)),
        'x-amz-target': `${service.targetPrefix}.${operation}`,
      },
      body,
      connection,
      new Date(),
      service.name,
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
