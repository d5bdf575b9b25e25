/**
 * Bundle stand-in for `pgpass`. pg reads ~/.pgpass only when the server asks for a password and
 * none was configured; Lambda functions always pass one (an IAM token for RDS Proxy; and pg
 * itself deprecates pgpass support), so the lookup never finds anything there. Saves ~4 KB
 * (pgpass + split2) per bundle. Answers "no password found", which is what pgpass does when the
 * file is missing.
 */
export default function pgpass(_connectionParameters: unknown, callback: (password?: string) => void): void {
  callback(undefined);
}
