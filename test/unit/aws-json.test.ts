/**
 * AWS calls over the JSON protocol (shared/aws-json.ts), as the idempotency store makes them: the
 * calls reach a DynamoDB-API store and carry its errors; throttling, 5xx and dropped connections
 * are retried, nothing else is. Their signature is tested in aws-signing.test.ts; EventBridge's
 * PutEvents in event-publisher.test.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdempotencyStore } from '../../local/embedded';
import { AwsServiceError, callAwsJson, DYNAMODB, lambdaConnection, serviceConnection, type AwsConnection } from '../../shared/aws-json';

const callDynamoDB = <Output = Record<string, unknown>>(connection: AwsConnection, operation: string, input: object) =>
  callAwsJson<Output>(connection, DYNAMODB, operation, input);

describe('lambdaConnection', () => {
  it("uses the function's region and role credentials, and the China partition's domain there", () => {
    const env = { AWS_REGION: 'eu-central-1', AWS_ACCESS_KEY_ID: 'ASIA1', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SESSION_TOKEN: 'token' };
    expect(lambdaConnection(DYNAMODB, env)).toEqual({
      endpoint: 'https://dynamodb.eu-central-1.amazonaws.com',
      region: 'eu-central-1',
      credentials: { accessKeyId: 'ASIA1', secretAccessKey: 'secret', sessionToken: 'token' },
    });
    expect(lambdaConnection({ name: 'events', targetPrefix: 'AWSEvents', protocol: '1.1', endpointVariable: 'EVENTBRIDGE_ENDPOINT' }, env).endpoint).toBe(
      'https://events.eu-central-1.amazonaws.com',
    );
    expect(lambdaConnection(DYNAMODB, { ...env, AWS_REGION: 'cn-north-1' }).endpoint).toBe('https://dynamodb.cn-north-1.amazonaws.com.cn');
    expect(() => lambdaConnection(DYNAMODB, { AWS_REGION: 'eu-central-1' })).toThrow(/AWS_ACCESS_KEY_ID/);
  });
});

describe('serviceConnection', () => {
  it("calls the stand-in the service's endpoint variable names, else the Lambda function's endpoint", () => {
    const lambda = { AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'ASIA1', AWS_SECRET_ACCESS_KEY: 'secret' };
    expect(serviceConnection(DYNAMODB, { ...lambda, DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' })).toEqual({
      endpoint: 'http://127.0.0.1:8000',
      region: 'eu-west-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    expect(serviceConnection(DYNAMODB, lambda)).toEqual(lambdaConnection(DYNAMODB, lambda));
  });
});

describe('callDynamoDB against a DynamoDB-API store', () => {
  let store: Awaited<ReturnType<typeof startIdempotencyStore>>;
  let connection: AwsConnection;
  beforeAll(async () => {
    store = await startIdempotencyStore();
    connection = { endpoint: store.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
  });
  afterAll(() => store.close());

  it('puts, reads, updates and deletes an item', async () => {
    const Key = { id: { S: `items-test-${Date.now()}` } };
    const TableName = store.tableName;
    await callDynamoDB(connection, 'PutItem', { TableName, Item: { ...Key, status: { S: 'INPROGRESS' }, expiration: { N: '1700000000' } } });
    expect(await callDynamoDB(connection, 'GetItem', { TableName, Key, ConsistentRead: true })).toEqual({
      Item: { ...Key, status: { S: 'INPROGRESS' }, expiration: { N: '1700000000' } },
    });
    await callDynamoDB(connection, 'UpdateItem', {
      TableName,
      Key,
      UpdateExpression: 'SET #status = :status, #data = :data',
      ExpressionAttributeNames: { '#status': 'status', '#data': 'data' },
      ExpressionAttributeValues: { ':status': { S: 'COMPLETED' }, ':data': { M: { statusCode: { N: '201' }, body: { S: '{"ünïcødé":"✓"}' } } } },
    });
    const { Item } = await callDynamoDB<{ Item: Record<string, unknown> }>(connection, 'GetItem', { TableName, Key, ConsistentRead: true });
    expect(Item.status).toEqual({ S: 'COMPLETED' });
    expect(Item.data).toEqual({ M: { statusCode: { N: '201' }, body: { S: '{"ünïcødé":"✓"}' } } });
    await callDynamoDB(connection, 'DeleteItem', { TableName, Key });
    expect(await callDynamoDB(connection, 'GetItem', { TableName, Key, ConsistentRead: true })).toEqual({});
  });

  it('carries a failed condition as an AwsServiceError named for the exception, without retrying it', async () => {
    const Key = { id: { S: `items-condition-${Date.now()}` } };
    const put = () => callDynamoDB(connection, 'PutItem', { TableName: store.tableName, Item: Key, ConditionExpression: 'attribute_not_exists(id)' });
    await put();
    const error = await put().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AwsServiceError);
    expect(error).toMatchObject({ type: 'ConditionalCheckFailedException', name: 'ConditionalCheckFailedException', statusCode: 400 });
  });

  it('refuses a request signed with another secret, where AWS would check it', async () => {
    // dynalite does not check signatures; a validation error shows the call's shape is what DynamoDB reads.
    const error = await callDynamoDB(connection, 'GetItem', { TableName: store.tableName }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ type: 'ValidationException', statusCode: 400 });
  });
});

describe('callAwsJson retries', () => {
  let server: Server;
  let connection: AwsConnection;
  /** What the fake store answers, one entry per attempt; the requests it received. */
  let answers: Array<(response: ServerResponse) => void>;
  const received: Array<{ target?: string; authorization?: string; body: string }> = [];
  beforeAll(async () => {
    server = createServer((request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({
          target: request.headers['x-amz-target'] as string,
          authorization: request.headers.authorization,
          body: Buffer.concat(chunks).toString(),
        });
        (answers.shift() ?? ok({}))(response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    connection = {
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' },
    };
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const ok = (body: object) => (response: ServerResponse) =>
    response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(body));
  const fail = (status: number, type: string) => (response: ServerResponse) =>
    response
      .writeHead(status, { 'content-type': 'application/x-amz-json-1.0' })
      .end(JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message: type }));
  const drop = () => (response: ServerResponse) => response.socket?.destroy();
  const call = async (...script: Array<(response: ServerResponse) => void>) => {
    answers = script;
    received.length = 0;
    return callDynamoDB(connection, 'GetItem', { TableName: 't', Key: { id: { S: 'k' } } }).then(
      (value) => ({ value, attempts: received.length }),
      (error: unknown) => ({ error, attempts: received.length }),
    );
  };

  it('sends one signed POST with the operation as its target', async () => {
    expect(await call(ok({ Item: { id: { S: 'k' } } }))).toEqual({ value: { Item: { id: { S: 'k' } } }, attempts: 1 });
    expect(received[0]).toMatchObject({ target: 'DynamoDB_20120810.GetItem', body: '{"TableName":"t","Key":{"id":{"S":"k"}}}' });
    expect(received[0].authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/eu-west-1\/dynamodb\/aws4_request, SignedHeaders=content-length;content-type;host;x-amz-date;x-amz-target, Signature=/,
    );
  });

  it('retries throttling, 5xx and a dropped connection, up to three attempts', async () => {
    expect(await call(fail(400, 'ProvisionedThroughputExceededException'), fail(500, 'InternalServerError'), ok({}))).toEqual({ value: {}, attempts: 3 });
    expect(await call(drop(), ok({ Item: {} }))).toEqual({ value: { Item: {} }, attempts: 2 });
    const exhausted = await call(fail(503, 'ServiceUnavailable'), fail(400, 'ThrottlingException'), fail(503, 'ServiceUnavailable'), ok({}));
    expect(exhausted).toMatchObject({ error: { type: 'ServiceUnavailable', statusCode: 503 }, attempts: 3 });
  });

  it('does not retry what another attempt would not change', async () => {
    expect(await call(fail(400, 'ValidationException'), ok({}))).toMatchObject({ error: { type: 'ValidationException' }, attempts: 1 });
    expect(await call(fail(400, 'ConditionalCheckFailedException'), ok({}))).toMatchObject({ error: { type: 'ConditionalCheckFailedException' }, attempts: 1 });
    const notJson = await call((response) => response.writeHead(403).end('<html>denied</html>'), ok({}));
    expect(notJson).toMatchObject({ error: { type: 'HttpError403', statusCode: 403 }, attempts: 1 });
  });
});
