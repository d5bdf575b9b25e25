/**
 * The VPC. Most functions, the proxy and the cluster live in private isolated subnets with no
 * route out: what they call outside the VPC is reached through VPC endpoints: DynamoDB (gateway,
 * free), EventBridge, Secrets Manager and the RDS API (interface). The few functions that must
 * call the internet (webhook delivery to integrators' URLs, the card processor's API) run in
 * private subnets with egress through NAT gateways in public subnets, which hold nothing else.
 * Flow logs record all traffic to CloudWatch Logs.
 */
import { Fn } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { Removal } from '../config/stages';
import { removalPolicyOf, retentionOf } from './conventions';

/** Fixed (not allocated) so security rules can name it literally. */
const VPC_CIDR = '10.40.0.0/16';

/** NAT for the egress subnets: one per availability zone (an AZ outage leaves the others' egress up), or one for the VPC (cheaper). */
type NatGateways = 'per_az' | 'single';

export interface NetworkProps {
  maxAzs: number;
  natGateways: NatGateways;
  flowLogRetentionDays: number;
  logRemoval: Removal;
}

/** The first `count` availability zones of the region the stack is deployed to, resolved by CloudFormation. */
function regionAvailabilityZones(count: number): string[] {
  return Array.from({ length: count }, (_, index) => Fn.select(index, Fn.getAzs()));
}

export class Network extends Construct {
  readonly vpc: ec2.Vpc;
  /** Where every function, the proxy and the cluster live. */
  readonly isolatedSubnets: ec2.SubnetSelection = { subnetType: ec2.SubnetType.PRIVATE_ISOLATED };
  /** Where the functions that call the internet live: private, outbound through NAT only. */
  readonly egressSubnets: ec2.SubnetSelection = { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS };
  readonly secretsManagerEndpoint: ec2.InterfaceVpcEndpoint;

  constructor(scope: Construct, id: string, props: NetworkProps) {
    super(scope, id);

    this.vpc = new ec2.Vpc(this, 'Vpc', {
      ipAddresses: ec2.IpAddresses.cidr(VPC_CIDR),
      // maxAzs alone is capped at two in an account- and region-agnostic stack (CDK cannot look the
      // zones up); naming the first N zones of the region with Fn::GetAZs honours it at deploy time.
      availabilityZones: regionAvailabilityZones(props.maxAzs),
      // Undefined is CDK's default: one NAT gateway in each availability zone the VPC spans.
      natGateways: props.natGateways === 'per_az' ? undefined : 1,
      // The isolated subnets come first so their ranges stay where they were before egress existed.
      subnetConfiguration: [
        { name: 'isolated', subnetType: ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 20 },
        // Only the NAT gateways live here: nothing gets a public address on launch.
        { name: 'public', subnetType: ec2.SubnetType.PUBLIC, cidrMask: 24, mapPublicIpOnLaunch: false },
        { name: 'egress', subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 22 },
      ],
      // Nothing uses the default security group; strip its allow-all rules (CIS EC2.2).
      restrictDefaultSecurityGroup: true,
      gatewayEndpoints: {
        DynamoDb: { service: ec2.GatewayVpcEndpointAwsService.DYNAMODB, subnets: [this.isolatedSubnets, this.egressSubnets] },
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
    // The cutover snapshot route starts its state machine's executions from the isolated subnets.
    endpoint('StepFunctions', ec2.InterfaceVpcEndpointAwsService.STEP_FUNCTIONS);
  }
}
