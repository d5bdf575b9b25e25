/**
 * Small helpers every construct shares: mapping stage settings onto CDK values, and recording
 * cdk-nag acknowledgements in one shape.
 */
import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { IConstruct } from 'constructs';
import type { Removal } from '../config/stages';

export function removalPolicyOf(removal: Removal): RemovalPolicy {
  switch (removal) {
    case 'retain':
      return RemovalPolicy.RETAIN;
    case 'snapshot':
      return RemovalPolicy.SNAPSHOT;
    case 'destroy':
      return RemovalPolicy.DESTROY;
  }
}

/** Stage config validates the day count against the values CloudWatch accepts. */
export function retentionOf(days: number): logs.RetentionDays {
  return days;
}

/**
 * Acknowledges a cdk-nag finding on a construct and everything below it. Every call states why
 * the finding does not apply or is accepted; `id` may name a single finding (`Rule[Finding]`).
 */
export function acknowledge(scope: IConstruct, id: string, reason: string): void {
  Validations.of(scope).acknowledge({ id, reason });
}
