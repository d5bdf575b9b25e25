/**
 * The password of an IAM database login through RDS Proxy: a Signature Version 4 presigned
 * `connect` request for the database user, signed with the function role's credentials and valid
 * for 15 minutes (the proxy checks it when the connection opens; an open connection outlives it).
 * It is made locally, with no call to AWS, each time the pool opens a connection.
 */
import { presignedUrl, type AwsSigningContext } from '../aws-signing';

/** How long a token can open a connection, as the SDK's signer sets it. */
const RDS_AUTH_TOKEN_SECONDS = 900;

export interface RdsLogin {
  hostname: string;
  port: number;
  username: string;
}

export function rdsAuthToken({ hostname, port, username }: RdsLogin, context: AwsSigningContext, at: Date = new Date()): string {
  return presignedUrl(`${hostname}:${port}`, { Action: 'connect', DBUser: username }, context, at, 'rds-db', RDS_AUTH_TOKEN_SECONDS);
}
