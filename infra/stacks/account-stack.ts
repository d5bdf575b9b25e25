/**
 * BizOps-ApiGatewayAccount: the one per-account-and-region setting API Gateway needs for execution
 * logs, the CloudWatch role it assumes. Both stages depend on it instead of each claiming the
 * account setting for itself (the last stage deployed would own it, and deleting that stage would
 * take execution logging away from the other). Deployed with either stage; its template is the
 * same whichever stage is named, so a second deploy changes nothing.
 */
import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { acknowledge } from '../constructs/conventions';

export const API_GATEWAY_ACCOUNT_STACK_NAME = 'BizOps-ApiGatewayAccount';

export class ApiGatewayAccountStack extends Stack {
  constructor(scope: Construct, id: string, props: StackProps = {}) {
    super(scope, id, props);
    const role = new iam.Role(this, 'CloudWatchRole', {
      assumedBy: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      description: 'API Gateway writes execution logs of every REST API in this account and region',
      managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs')],
    });
    // The setting is account-wide: removing this stack must not break the stages' execution logs.
    role.applyRemovalPolicy(RemovalPolicy.RETAIN);
    const account = new apigw.CfnAccount(this, 'Account', { cloudWatchRoleArn: role.roleArn });
    account.applyRemovalPolicy(RemovalPolicy.RETAIN);
    acknowledge(
      role,
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      'The account-level role API Gateway itself assumes to write execution logs; this AWS managed policy is the documented way to grant it.',
    );
  }
}
