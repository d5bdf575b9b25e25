/**
 * The AWS SDK v3 clients the functions call AWS with: one per container, created on first need.
 * On AWS the SDK resolves the region, the role's credentials and the regional endpoint itself.
 * Elsewhere the SDK's own endpoint variable of a service (AWS_ENDPOINT_URL_DYNAMODB,
 * AWS_ENDPOINT_URL_EVENTBRIDGE, AWS_ENDPOINT_URL_SECRETS_MANAGER) points its client at a local
 * stand-in (the embedded idempotency store of `npm start` and the tests, a benchmark's), with
 * placeholder credentials, which a stand-in does not check.
 */

/** What a client is built with: nothing on AWS; a stand-in's endpoint, a region and placeholder credentials otherwise. */
interface ClientConfig {
  endpoint?: string;
  region?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

export type EndpointVariable = 'AWS_ENDPOINT_URL_DYNAMODB' | 'AWS_ENDPOINT_URL_EVENTBRIDGE' | 'AWS_ENDPOINT_URL_SECRETS_MANAGER';

const clients = new Map<string, unknown>();

/**
 * The container's client of one service. Keyed by the stand-in's address too: the local server
 * restarted in one process (tests) brings its store back on another port.
 */
export function awsClient<Client>(
  create: (config: ClientConfig) => Client,
  endpointVariable: EndpointVariable,
  env: Record<string, string | undefined> = process.env,
): Client {
  const endpoint = env[endpointVariable];
  const key = `${endpointVariable} ${endpoint ?? ''}`;
  let client = clients.get(key) as Client | undefined;
  if (!client) {
    client = create(endpoint ? { endpoint, region: env.AWS_REGION ?? 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {});
    clients.set(key, client);
  }
  return client;
}
