/**
 * The DynamoDB table behind Powertools idempotency (shared/http/idempotency.ts): partition key
 * `id`, expiry in `expiration` (epoch seconds, enforced by DynamoDB TTL), on-demand capacity.
 */
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import type { Removal } from '../config/stages';
import { removalPolicyOf } from './conventions';

export interface IdempotencyStoreProps {
  removal: Removal;
}

export class IdempotencyStore extends Construct {
  readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string, props: IdempotencyStoreProps) {
    super(scope, id);
    this.table = new dynamodb.Table(this, 'Table', {
      // Powertools' DynamoDBPersistenceLayer defaults: key attribute `id`, expiry attribute `expiration`.
      partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING },
      timeToLiveAttribute: 'expiration',
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      removalPolicy: removalPolicyOf(props.removal),
    });
  }
}
