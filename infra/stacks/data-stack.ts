/**
 * BizOps-<stage>-Data: everything that holds state or is slow to create — network, Aurora with
 * RDS Proxy, the idempotency table, the event bus — plus the security groups the stateless stack
 * uses, so no ingress rule ever has to be added to this stack from the outside.
 */
import { Stack, type StackProps } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config/stages';
import { DATABASE_NAME, DATABASE_PORT, Database, type DatabaseLogin } from '../constructs/database';
import { DomainEventBus } from '../constructs/event-bus';
import { IdempotencyStore } from '../constructs/idempotency-store';
import { Network } from '../constructs/network';

export interface DataStackProps extends StackProps {
  stage: StageConfig;
}

/** What the stateless stack consumes; typed so nothing is looked up by name. */
export interface DataResources {
  vpc: ec2.IVpc;
  subnets: ec2.SubnetSelection;
  /** Private subnets with outbound internet through NAT: only for functions that must call out (webhooks, the card processor). */
  egressSubnets: ec2.SubnetSelection;
  /** Shared by every API function: may reach the proxy on 5432. */
  functionsSecurityGroup: ec2.ISecurityGroup;
  /** The migration step: may reach the cluster writer on 5432. */
  migrationSecurityGroup: ec2.ISecurityGroup;
  database: {
    /** The cluster identifier and the proxy name (both `bizops-<stage>`): plain strings, for metrics. */
    identifier: string;
    proxyEndpoint: string;
    clusterEndpoint: string;
    port: number;
    name: string;
    adminSecret: secretsmanager.ISecret;
    /** The migration step's: it sets the application role's password from this secret. */
    appSecret: secretsmanager.ISecret;
    /** How every other function logs in: through the proxy, with IAM. */
    appLogin: DatabaseLogin;
  };
  idempotencyTable: dynamodb.ITable;
  eventBus: events.IEventBus;
}

export class DataStack extends Stack {
  readonly resources: DataResources;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { stage } = props;

    const network = new Network(this, 'Network', {
      maxAzs: stage.network.maxAzs,
      natGateways: stage.network.natGateways,
      flowLogRetentionDays: stage.logs.flowLogRetentionDays,
      logRemoval: stage.logs.removal,
    });

    const databaseIdentifier = `bizops-${stage.name}`;
    const database = new Database(this, 'Database', {
      identifier: databaseIdentifier,
      vpc: network.vpc,
      subnets: network.isolatedSubnets,
      secretsManagerEndpoint: network.secretsManagerEndpoint,
      minCapacity: stage.database.minCapacity,
      maxCapacity: stage.database.maxCapacity,
      readers: stage.database.readers,
      deletionProtection: stage.database.deletionProtection,
      backupRetentionDays: stage.database.backupRetentionDays,
      performanceInsights: stage.database.performanceInsights,
      removal: stage.database.removal,
      logRetentionDays: stage.logs.databaseRetentionDays,
      logRemoval: stage.logs.removal,
    });

    const functionsSecurityGroup = new ec2.SecurityGroup(this, 'FunctionsSecurityGroup', {
      vpc: network.vpc,
      description: 'BizOps API functions (routes, authorizer, outbox sweeper)',
      allowAllOutbound: true,
    });
    database.allowProxyFrom(functionsSecurityGroup, 'API functions to RDS Proxy');

    const migrationSecurityGroup = new ec2.SecurityGroup(this, 'MigrationSecurityGroup', {
      vpc: network.vpc,
      description: 'BizOps deploy-time migration function',
      allowAllOutbound: true,
    });
    database.allowClusterFrom(migrationSecurityGroup, 'Migration step to Aurora');

    const idempotency = new IdempotencyStore(this, 'Idempotency', { removal: stage.idempotency.removal });
    const bus = new DomainEventBus(this, 'Events', {
      busName: `bizops-${stage.name}`,
      removal: stage.events.removal,
      archiveRetentionDays: stage.events.archiveRetentionDays,
    });

    this.resources = {
      vpc: network.vpc,
      subnets: network.isolatedSubnets,
      egressSubnets: network.egressSubnets,
      functionsSecurityGroup,
      migrationSecurityGroup,
      database: {
        identifier: databaseIdentifier,
        proxyEndpoint: database.proxy.endpoint,
        clusterEndpoint: database.cluster.clusterEndpoint.hostname,
        port: DATABASE_PORT,
        name: DATABASE_NAME,
        adminSecret: database.adminSecret,
        appSecret: database.appSecret,
        appLogin: database.appLogin,
      },
      idempotencyTable: idempotency.table,
      eventBus: bus.bus,
    };
  }
}
