/**
 * The VPC: private isolated subnets only, no NAT. Everything the functions call outside the VPC
 * is reached through VPC endpoints: DynamoDB (gateway, free), EventBridge, Secrets Manager and the
 * RDS API (interface). Flow logs record all traffic to CloudWatch Logs.
 */
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { Removal } from '../config/stages';
import { removalPolicyOf, retentionOf } from './conventions';

/** Fixed (not allocated) so security rules can name it literally. */
const VPC_CIDR = '10.40.0.0/16';

export interface NetworkProps {
  maxAzs: number;
  flowLogRetentionDays: number;
  logRemoval: Removal;
}

export class Network extends Construct {
  readonly vpc: ec2.Vpc;
  /** Where every function, the proxy and the cluster live. */
  readonly isolatedSubnets: ec2.SubnetSelection = { subnetType: ec2.SubnetType.PRIVATE_ISOLATED };
  readonly secretsManagerEndpoint: ec2.InterfaceVpcEndpoint;

  constructor(scope: Construct, id: string, props: NetworkProps) {
    super(scope, id);

    this.vpc = new ec2.Vpc(this, 'Vpc', {
      ipAddresses: ec2.IpAddresses.cidr(VPC_CIDR),
      maxAzs: props.maxAzs,
      natGateways: 0,
      subnetConfiguration: [{ name: 'isolated', subnetType: ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 20 }],
      // Nothing uses the default security group; strip its allow-all rules (CIS EC2.2).
      restrictDefaultSecurityGroup: true,
      gatewayEndpoints: {
        DynamoDb: { service: ec2.GatewayVpcEndpointAwsService.DYNAMODB, subnets: [this.isolatedSubnets] },
      },
    });

    const flowLogs = new logs.LogGroup(this, 'FlowLogs', {
      retention: retentionOf(props.flowLogRetentionDays),
      removalPolicy: removalPolicyOf(props.logRemoval),
    });
    this.vpc.addFlowLog('FlowLog', {
      destination: ec2.FlowLogDestination.toCloudWatchLogs(flowLogs),
      trafficType: ec2.FlowLogTrafficType.ALL,
    });

    // Interface endpoints admit HTTPS from inside the VPC only.
    const endpoint = (endpointId: string, service: ec2.InterfaceVpcEndpointAwsService) => {
      const created = this.vpc.addInterfaceEndpoint(endpointId, { service, subnets: this.isolatedSubnets, privateDnsEnabled: true, open: false });
      created.connections.allowFrom(ec2.Peer.ipv4(VPC_CIDR), ec2.Port.tcp(443), 'HTTPS from inside the VPC');
      return created;
    };
    endpoint('EventBridge', ec2.InterfaceVpcEndpointAwsService.EVENTBRIDGE);
    this.secretsManagerEndpoint = endpoint('SecretsManager', ec2.InterfaceVpcEndpointAwsService.SECRETS_MANAGER);
    endpoint('RdsApi', ec2.InterfaceVpcEndpointAwsService.RDS);
  }
}
