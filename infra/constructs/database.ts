/**
 * Aurora PostgreSQL Serverless v2 behind RDS Proxy.
 *
 * Two logins exist: the cluster admin (generated secret, rotated every 30 days) that only the
 * deploy-time migration uses, and `bizops_app`, the login every function connects as through the
 * proxy. The migration step creates `bizops_app` with the password of its secret; it owns
 * nothing and only switches into the NOLOGIN roles the migrations create (see
 * functions/platform/migrate-database.ts).
 */
import { Duration } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as rds from 'aws-cdk-lib/aws-rds';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { Removal } from '../config/stages';
import { acknowledge, removalPolicyOf, retentionOf } from './conventions';

export const DATABASE_NAME = 'bizops';
const APP_USERNAME = 'bizops_app';
const ADMIN_USERNAME = 'bizops_admin';
/** RDS Proxy for PostgreSQL always listens on 5432; the cluster keeps the same port. */
export const DATABASE_PORT = 5432;
/** The characters the app password leaves out, generated or rotated (the CDK's default for database secrets). */
const DATABASE_PASSWORD_EXCLUDED_CHARACTERS = ' %+~`#$&*()|[]{}:;<>?!\'/@"\\';

export interface DatabaseProps {
  /** Used in the cluster and proxy identifiers, e.g. `bizops-prod`. */
  identifier: string;
  vpc: ec2.IVpc;
  subnets: ec2.SubnetSelection;
  /** Rotation functions reach Secrets Manager through this endpoint (there is no NAT). */
  secretsManagerEndpoint: ec2.IInterfaceVpcEndpoint;
  minCapacity: number;
  maxCapacity: number;
  readers: number;
  deletionProtection: boolean;
  backupRetentionDays: number;
  performanceInsights: boolean;
  removal: Removal;
  logRetentionDays: number;
  logRemoval: Removal;
}

/**
 * The application's login through the proxy: functions connect as `username` with an IAM token
 * (shared/db/rds-auth-token.ts) and never read its password, which only the proxy and the
 * migration step hold.
 */
export interface DatabaseLogin {
  readonly username: string;
  /** Lets a role's functions log in as `username` through the proxy (rds-db:connect). */
  grantConnect(grantee: iam.IGrantable): iam.Grant;
}

export class Database extends Construct {
  readonly cluster: rds.DatabaseCluster;
  readonly proxy: rds.DatabaseProxy;
  readonly adminSecret: secretsmanager.ISecret;
  readonly appSecret: rds.DatabaseSecret;
  readonly appLogin: DatabaseLogin;
  readonly proxySecurityGroup: ec2.SecurityGroup;
  readonly clusterSecurityGroup: ec2.SecurityGroup;

  constructor(scope: Construct, id: string, props: DatabaseProps) {
    super(scope, id);
    const { vpc, subnets } = props;

    this.clusterSecurityGroup = new ec2.SecurityGroup(this, 'ClusterSecurityGroup', {
      vpc,
      description: 'Aurora cluster: PostgreSQL from RDS Proxy, the migration step and secret rotation only',
      allowAllOutbound: false,
    });
    this.proxySecurityGroup = new ec2.SecurityGroup(this, 'ProxySecurityGroup', {
      vpc,
      description: 'RDS Proxy: PostgreSQL from the API functions only',
      // The proxy reaches the cluster and fetches its secrets through the Secrets Manager
      // endpoint; the isolated VPC has no other way out.
      allowAllOutbound: true,
    });

    // The cluster identifier is fixed so the PostgreSQL log group below can exist (with its
    // retention) before RDS starts exporting to it; otherwise RDS creates it with no expiry.
    const clusterIdentifier = props.identifier;
    const postgresLogs = new logs.LogGroup(this, 'PostgresLogs', {
      logGroupName: `/aws/rds/cluster/${clusterIdentifier}/postgresql`,
      retention: retentionOf(props.logRetentionDays),
      removalPolicy: removalPolicyOf(props.logRemoval),
    });

    const serverlessInstance = (instanceId: string, reader: boolean) =>
      rds.ClusterInstance.serverlessV2(instanceId, {
        enablePerformanceInsights: props.performanceInsights,
        autoMinorVersionUpgrade: true,
        publiclyAccessible: false,
        ...(reader && { scaleWithWriter: true }),
      });

    this.cluster = new rds.DatabaseCluster(this, 'Cluster', {
      engine: rds.DatabaseClusterEngine.auroraPostgres({ version: rds.AuroraPostgresEngineVersion.VER_16_9 }),
      clusterIdentifier,
      credentials: rds.Credentials.fromGeneratedSecret(ADMIN_USERNAME),
      defaultDatabaseName: DATABASE_NAME,
      port: DATABASE_PORT,
      writer: serverlessInstance('Writer', false),
      readers: Array.from({ length: props.readers }, (_, index) => serverlessInstance(`Reader${index + 1}`, true)),
      serverlessV2MinCapacity: props.minCapacity,
      serverlessV2MaxCapacity: props.maxCapacity,
      vpc,
      vpcSubnets: subnets,
      securityGroups: [this.clusterSecurityGroup],
      storageEncrypted: true,
      iamAuthentication: true,
      // Refuse plaintext connections at the server, whatever a client asks for.
      parameters: { 'rds.force_ssl': '1' },
      cloudwatchLogsExports: ['postgresql'],
      backup: { retention: Duration.days(props.backupRetentionDays), preferredWindow: '02:00-03:00' },
      preferredMaintenanceWindow: 'sun:03:30-sun:04:30',
      copyTagsToSnapshot: true,
      deletionProtection: props.deletionProtection,
      removalPolicy: removalPolicyOf(props.removal),
    });
    this.cluster.node.addDependency(postgresLogs);
    this.adminSecret = this.cluster.secret!;

    // The proxy authenticates the admin login against its secret; rotating it is safe because the
    // only client (the migration step) reads the secret on every run.
    this.cluster.addRotationSingleUser({
      automaticallyAfter: Duration.days(30),
      vpcSubnets: subnets,
      endpoint: props.secretsManagerEndpoint,
    });

    this.appSecret = new rds.DatabaseSecret(this, 'AppSecret', {
      username: APP_USERNAME,
      dbname: DATABASE_NAME,
      excludeCharacters: DATABASE_PASSWORD_EXCLUDED_CHARACTERS,
    });
    // Adds host, port and engine to the secret so it fully describes the connection.
    this.appSecret.attach(this.cluster);
    // Rotated like the admin login: only the proxy (which reads the new version when it next logs in)
    // and the migration step (which reads it on every run) hold this password; functions log in with IAM.
    new secretsmanager.SecretRotation(this, 'AppSecretRotation', {
      application: secretsmanager.SecretRotationApplication.POSTGRES_ROTATION_SINGLE_USER,
      secret: this.appSecret,
      target: this.cluster,
      vpc,
      vpcSubnets: subnets,
      endpoint: props.secretsManagerEndpoint,
      automaticallyAfter: Duration.days(30),
      // Rotated passwords leave out what the generated one did.
      excludeCharacters: DATABASE_PASSWORD_EXCLUDED_CHARACTERS,
    });

    this.proxy = new rds.DatabaseProxy(this, 'Proxy', {
      dbProxyName: props.identifier,
      proxyTarget: rds.ProxyTarget.fromCluster(this.cluster),
      secrets: [this.adminSecret, this.appSecret],
      vpc,
      vpcSubnets: subnets,
      securityGroups: [this.proxySecurityGroup],
      requireTLS: true,
      // Clients log in with IAM tokens; the proxy logs in to Aurora with the secrets above.
      iamAuth: true,
      // Lambda environments come and go; do not hold their idle client connections for the default 30 min.
      idleClientTimeout: Duration.minutes(10),
    });
    const proxy = this.proxy;
    this.appLogin = { username: APP_USERNAME, grantConnect: (grantee) => proxy.grantConnect(grantee, APP_USERNAME) };
    this.cluster.connections.allowDefaultPortFrom(this.proxySecurityGroup, 'RDS Proxy to Aurora');

    if (!props.deletionProtection) {
      acknowledge(
        this.cluster,
        'AwsSolutions-RDS10',
        'Deletion protection is off in the sandbox stage only (stage config enforces it for prod), so the sandbox can be torn down; removal still takes a final snapshot.',
      );
    }
  }

  /** Lets a client reach the proxy on 5432. */
  allowProxyFrom(peer: ec2.ISecurityGroup, description: string): void {
    this.proxySecurityGroup.addIngressRule(peer, ec2.Port.tcp(DATABASE_PORT), description);
  }

  /** Lets a client reach the cluster directly on 5432 (the migration step only). */
  allowClusterFrom(peer: ec2.ISecurityGroup, description: string): void {
    this.clusterSecurityGroup.addIngressRule(peer, ec2.Port.tcp(DATABASE_PORT), description);
  }
}
