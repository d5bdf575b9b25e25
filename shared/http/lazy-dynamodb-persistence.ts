/**
 * The Powertools DynamoDB persistence layer, with the DynamoDB client loaded on first use.
 *
 * `@aws-lambda-powertools/idempotency/dynamodb` imports `@aws-sdk/client-dynamodb` at its module
 * top. A route bundle is one ESM file with `@aws-sdk/*` external, so esbuild must hoist that
 * import to the top of every bundle that reaches it, even lazily: every route loaded the client
 * (about 100–150 ms of a cold start) although only requests with an Idempotency-Key use it. This
 * layer does what Powertools' does (same attributes, conditions and consistent reads; the table
 * in infra/constructs/idempotency-store.ts) but reaches the SDK through `import()`, which stays a
 * dynamic import of the external package: the SDK loads on the first idempotent request only.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { IdempotencyRecordStatusValue } from '@aws-lambda-powertools/idempotency/types';
import {
  IdempotencyItemAlreadyExistsError,
  IdempotencyItemNotFoundError,
  IdempotencyRecordStatus,
  PERSISTENCE_ATTRIBUTE_KEY_MAPPINGS,
} from '@aws-lambda-powertools/idempotency';
import { BasePersistenceLayer, IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';

export interface LazyDynamoDBOptions {
  tableName: string;
  /** Endpoint, region and credentials for a local DynamoDB-API store; AWS uses the defaults. */
  clientConfig?: { endpoint: string; region: string; credentials: { accessKeyId: string; secretAccessKey: string } };
}

type Sdk = typeof import('@aws-sdk/client-dynamodb');
type Codec = typeof import('@aws-sdk/util-dynamodb');

let sdk: Promise<[Sdk, Codec]> | undefined;
/** Loaded once per process, when the first idempotent request needs it. */
const loadSdk = () => (sdk ??= Promise.all([import('@aws-sdk/client-dynamodb'), import('@aws-sdk/util-dynamodb')]));

const { statusAttr, expiryAttr, inProgressExpiryAttr, dataAttr, validationKeyAttr } = PERSISTENCE_ATTRIBUTE_KEY_MAPPINGS;
const KEY_ATTR = 'id';

export class LazyDynamoDBPersistenceLayer extends BasePersistenceLayer {
  private client?: DynamoDBClient;

  constructor(private readonly options: LazyDynamoDBOptions) {
    super();
  }

  private async connect(): Promise<{ client: DynamoDBClient; sdk: Sdk; codec: Codec }> {
    const [loaded, codec] = await loadSdk();
    this.client ??= new loaded.DynamoDBClient(this.options.clientConfig ?? {});
    return { client: this.client, sdk: loaded, codec };
  }

  private key(idempotencyKey: string): Record<string, AttributeValue> {
    return { [KEY_ATTR]: { S: idempotencyKey } };
  }

  private recordOf(codec: Codec, item: Record<string, AttributeValue>): IdempotencyRecord {
    const value = codec.unmarshall(item);
    return new IdempotencyRecord({
      idempotencyKey: value[KEY_ATTR] as string,
      status: value[statusAttr] as IdempotencyRecordStatusValue,
      expiryTimestamp: value[expiryAttr] as number | undefined,
      inProgressExpiryTimestamp: value[inProgressExpiryAttr] as number | undefined,
      responseData: value[dataAttr] as IdempotencyRecord['responseData'],
      payloadHash: value[validationKeyAttr] as string | undefined,
    });
  }

  protected async _deleteRecord(record: IdempotencyRecord): Promise<void> {
    const { client, sdk: aws } = await this.connect();
    await client.send(new aws.DeleteItemCommand({ TableName: this.options.tableName, Key: this.key(record.idempotencyKey) }));
  }

  protected async _getRecord(idempotencyKey: string): Promise<IdempotencyRecord> {
    const { client, sdk: aws, codec } = await this.connect();
    const result = await client.send(new aws.GetItemCommand({ TableName: this.options.tableName, Key: this.key(idempotencyKey), ConsistentRead: true }));
    if (!result.Item) throw new IdempotencyItemNotFoundError();
    return this.recordOf(codec, result.Item);
  }

  protected async _putRecord(record: IdempotencyRecord): Promise<void> {
    const { client, sdk: aws, codec } = await this.connect();
    const item: Record<string, AttributeValue> = {
      ...this.key(record.idempotencyKey),
      ...codec.marshall({ [expiryAttr]: record.expiryTimestamp, [statusAttr]: record.getStatus() }),
    };
    if (record.inProgressExpiryTimestamp !== undefined) item[inProgressExpiryAttr] = { N: record.inProgressExpiryTimestamp.toString() };
    if (this.isPayloadValidationEnabled() && record.payloadHash !== undefined) item[validationKeyAttr] = { S: record.payloadHash };
    const now = Date.now();
    try {
      // Saved when the key is new, its record expired, or an in-progress record outlived its Lambda.
      await client.send(
        new aws.PutItemCommand({
          TableName: this.options.tableName,
          Item: item,
          ExpressionAttributeNames: { '#id': KEY_ATTR, '#expiry': expiryAttr, '#in_progress_expiry': inProgressExpiryAttr, '#status': statusAttr },
          ExpressionAttributeValues: codec.marshall({ ':now': now / 1000, ':now_in_millis': now, ':inprogress': IdempotencyRecordStatus.INPROGRESS }),
          ConditionExpression:
            'attribute_not_exists(#id) OR #expiry < :now OR (#status = :inprogress AND attribute_exists(#in_progress_expiry) AND #in_progress_expiry < :now_in_millis)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
    } catch (error) {
      if (error instanceof aws.ConditionalCheckFailedException) {
        throw new IdempotencyItemAlreadyExistsError(
          `Failed to put record for already existing idempotency key: ${record.idempotencyKey}`,
          error.Item && this.recordOf(codec, error.Item),
        );
      }
      throw error;
    }
  }

  protected async _updateRecord(record: IdempotencyRecord): Promise<void> {
    const { client, sdk: aws, codec } = await this.connect();
    const fields = ['#expiry = :expiry', '#status = :status'];
    const names: Record<string, string> = { '#expiry': expiryAttr, '#status': statusAttr };
    const values: Record<string, unknown> = { ':expiry': record.expiryTimestamp, ':status': record.getStatus() };
    if (record.responseData !== undefined) {
      fields.push('#response_data = :response_data');
      names['#response_data'] = dataAttr;
      values[':response_data'] = record.responseData;
    }
    if (this.isPayloadValidationEnabled()) {
      fields.push('#validation_key = :validation_key');
      names['#validation_key'] = validationKeyAttr;
      values[':validation_key'] = record.payloadHash;
    }
    await client.send(
      new aws.UpdateItemCommand({
        TableName: this.options.tableName,
        Key: this.key(record.idempotencyKey),
        UpdateExpression: `SET ${fields.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: codec.marshall(values),
      }),
    );
  }
}
