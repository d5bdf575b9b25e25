/**
 * Seeds the benchmark database: migrations, one entity (owner + key with every scope) and one
 * location. Application modules are imported lazily so a caller can set NODE_ENV first; the caller
 * also configures the database pool (configureDatabase) before calling seed().
 */
export interface Seeded {
  entityId: string;
  entityCode: string;
  keyId: string;
  userId: string;
  secret: string;
  locationId: string;
  /** requestContext.authorizer as API Gateway passes it on to a route (strings only). */
  authorizer: Record<string, string>;
}

export async function migrateBenchDatabase(url: string): Promise<void> {
  const { migrate } = await import('../shared/db/migrate');
  await migrate(url);
}

/**
 * Migrates the benchmark database and points the data layer (a pool of 4) and an in-process event
 * bus at it, as a route runs in process. Returns what closes the pool.
 */
export async function connectBenchDatabase(url: string): Promise<() => Promise<void>> {
  const { default: pg } = await import('pg');
  const { configureDatabase, closeDatabase } = await import('../shared/db/database');
  const { configurePublisher, InProcessEventBus } = await import('../shared/events/publisher');
  await migrateBenchDatabase(url);
  configureDatabase(() => {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    // Dropping the database at the end terminates whatever the pool still holds; not a failure.
    pool.on('error', (error) => console.warn(`pool: ${error.message}`));
    return pool;
  });
  configurePublisher(new InProcessEventBus());
  return closeDatabase;
}

export async function seed(scopes = 'settings:read'): Promise<Seeded> {
  const { inEntity } = await import('../shared/tenants/identity-store');
  const { provisionEntity } = await import('../shared/tenants/provision-entity');
  const { createLocation } = await import('../shared/inventory/locations');
  const { ALL_SCOPES } = await import('../shared/auth/scopes');
  const provisioned = await provisionEntity({ code: 'bench', name: 'Benchmark entity', mode: 'test', scopes: ALL_SCOPES });
  const entityId = provisioned.entity.id;
  const location = await inEntity(entityId, (db) =>
    createLocation(db, entityId, {
      name: 'Main warehouse',
      address1: '1 Harbour Road',
      city: 'Rotterdam',
      postal_code: '3011',
      country: 'NL',
      phone: '+31 10 000 0000',
      metadata: { site: 'rtm-1' },
    }),
  );
  return {
    entityId,
    entityCode: provisioned.entity.code,
    keyId: provisioned.key.id,
    userId: provisioned.owner.id,
    secret: provisioned.key.secret,
    locationId: location.id,
    authorizer: {
      entityId,
      entityCode: provisioned.entity.code,
      keyId: provisioned.key.id,
      userId: provisioned.owner.id,
      mode: 'test',
      scopes,
    },
  };
}

/** An API Gateway REST proxy event for GET `path` of resource `resource`. */
export function getEvent(options: {
  resource: string;
  path: string;
  pathParameters?: Record<string, string> | null;
  authorizer?: Record<string, string> | null;
  requestId: string;
}): Record<string, unknown> {
  return {
    resource: options.resource,
    path: options.path,
    httpMethod: 'GET',
    headers: { Accept: 'application/json', Host: 'api.example.com', 'User-Agent': 'bench' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: options.pathParameters ?? null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {
      requestId: options.requestId,
      authorizer: options.authorizer ?? null,
      httpMethod: 'GET',
      path: options.path,
      resourcePath: options.resource,
      stage: 'prod',
    },
  };
}

type GetHandler = (event: never, context: never) => Promise<{ statusCode: number; body: string }>;

const BENCH_CONTEXT = { functionName: 'bench', awsRequestId: 'bench', getRemainingTimeInMillis: () => 29_000 };
let requestSequence = 0;

/**
 * Calls a GET route's Lambda handler in process, as API Gateway would: the resource path, its path
 * parameters, the query (one value per name) and the authorizer's context. Anything but 200 throws.
 */
export async function invokeGet<T = unknown>(
  handler: unknown,
  options: { resource: string; pathParameters: Record<string, string>; query?: Record<string, string>; authorizer: Record<string, string> },
): Promise<T> {
  const path = Object.entries(options.pathParameters).reduce((resource, [name, value]) => resource.replace(`{${name}}`, value), options.resource);
  const base = getEvent({ ...options, path, requestId: `bench-${++requestSequence}` });
  const query = options.query && Object.keys(options.query).length > 0 ? options.query : null;
  const event = {
    ...base,
    queryStringParameters: query,
    multiValueQueryStringParameters: query && Object.fromEntries(Object.entries(query).map(([name, value]) => [name, [value]])),
  };
  const response = await (handler as GetHandler)(event as never, BENCH_CONTEXT as never);
  if (response.statusCode !== 200) throw new Error(`GET ${path}: ${response.statusCode} ${response.body}`);
  return JSON.parse(response.body) as T;
}
