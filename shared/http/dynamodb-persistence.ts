/**
 * The idempotency records on DynamoDB: what Powertools' DynamoDB persistence layer does (same
 * attributes, conditions and consistent reads; the table in infra/constructs/idempotency-store.ts),
 * through four item calls of DynamoDB's JSON protocol (GetItem, PutItem, UpdateItem, DeleteItem;
 * shared/aws-json.ts) instead of `@aws-sdk/client-dynamodb`, whose evaluation and first call took
 * about 100 ms of the cold start of every write that carried an Idempotency-Key, and with the
 * attribute codec of dynamodb-attributes.ts.
 */
import type { IdempotencyRecordStatusValue } from '@aws-lambda-powertools/idempotency/types';
import {
  IdempotencyItemAlreadyExistsError,
  IdempotencyItemNotFoundError,
  IdempotencyRecordStatus,
  PERSISTENCE_ATTRIBUTE_KEY_MAPPINGS,
} from '@aws-lambda-powertools/idempotency';
import { BasePersistenceLayer, IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import { AwsServiceError, callAwsJson, DYNAMODB, type AwsConnection } from '../aws-json';
import { fromItem, toItem, type Item } from './dynamodb-attributes';

const { statusAttr, expiryAttr, inProgressExpiryAttr, dataAttr, validationKeyAttr } = PERSISTENCE_ATTRIBUTE_KEY_MAPPINGS;
const KEY_ATTR = 'id';

type ItemOperation = 'GetItem' | 'PutItem' | 'UpdateItem' | 'DeleteItem';

export class DynamoDBPersistence extends BasePersistenceLayer {
  constructor(
    private readonly tableName: string,
    /** Where and as whom: a local DynamoDB-API store, or the Lambda's region and role. */
    private readonly connection: AwsConnection,
  ) {
    super();
  }

  private call<Output>(operation: ItemOperation, input: object): Promise<Output> {
    return callAwsJson<Output>(this.connection, DYNAMODB, operation, { TableName: this.tableName, ...input });
  }

  private key(idempotencyKey: string): Item {
    return { [KEY_ATTR]: { S: idempotencyKey } };
  }

  private recordOf(item: Item): IdempotencyRecord {
    const value = fromItem(item);
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
    await this.call('DeleteItem', { Key: this.key(record.idempotencyKey) });
  }

  protected async _getRecord(idempotencyKey: string): Promise<IdempotencyRecord> {
    const result = await this.call<{ Item?: Item }>('GetItem', { Key: this.key(idempotencyKey), ConsistentRead: true });
    if (!result.Item) throw new IdempotencyItemNotFoundError();
    return this.recordOf(result.Item);
  }

  protected async _putRecord(record: IdempotencyRecord): Promise<void> {
    const item: Item = {
      ...this.key(record.idempotencyKey),
      ...toItem({ [expiryAttr]: record.expiryTimestamp, [statusAttr]: record.getStatus() }),
    };
    if (record.inProgressExpiryTimestamp !== undefined) item[inProgressExpiryAttr] = { N: record.inProgressExpiryTimestamp.toString() };
    if (this.isPayloadValidationEnabled() && record.payloadHash !== undefined) item[validationKeyAttr] = { S: record.payloadHash };
    const now = Date.now();
    try {
      // Saved when the key is new, its record expired, or an in-progress record outlived its Lambda.
      await this.call('PutItem', {
        Item: item,
        ExpressionAttributeNames: { '#id': KEY_ATTR, '#expiry': expiryAttr, '#in_progress_expiry': inProgressExpiryAttr, '#status': statusAttr },
        ExpressionAttributeValues: toItem({ ':now': now / 1000, ':now_in_millis': now, ':inprogress': IdempotencyRecordStatus.INPROGRESS }),
        ConditionExpression:
          'attribute_not_exists(#id) OR #expiry < :now OR (#status = :inprogress AND attribute_exists(#in_progress_expiry) AND #in_progress_expiry < :now_in_millis)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      });
    } catch (error) {
      if (error instanceof AwsServiceError && error.type === 'ConditionalCheckFailedException') {
        const existing = error.body.Item as Item | undefined;
        throw new IdempotencyItemAlreadyExistsError(
          `Failed to put record for already existing idempotency key: ${record.idempotencyKey}`,
          existing && this.recordOf(existing),
        );
      }
      throw error;
    }
  }

  protected async _updateRecord(record: IdempotencyRecord): Promise<void> {
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
    await this.call('UpdateItem', {
      Key: this.key(record.idempotencyKey),
      UpdateExpression: `SET ${fields.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: toItem(values),
    });
  }
}
