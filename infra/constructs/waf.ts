/**
 * AWS WAF in front of the API stage: the AWS managed common rule set and known-bad-inputs rule
 * group, and a rate-based rule that blocks a client IP sending more than the stage's limit in any
 * 5 minutes (before the authorizer or a function runs; per-key throttling is the usage plans').
 *
 * One override: the common rule set's SizeRestrictions_BODY blocks bodies over 8 KB, which would
 * refuse legitimate bulk requests (order lines, migration batches). It only counts here; the
 * handler stack enforces the API's own body limit with a 413 in the error envelope.
 */
import { Aws } from 'aws-cdk-lib';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

export interface ApiFirewallProps {
  /** Names the web ACL and its metrics, e.g. `bizops-prod`. */
  name: string;
  restApiId: string;
  stageName: string;
  requestsPerIpPer5Minutes: number;
}

const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  sampledRequestsEnabled: true,
  metricName,
});

function managedRuleGroup(priority: number, name: string, overrides: string[] = []): wafv2.CfnWebACL.RuleProperty {
  return {
    name,
    priority,
    overrideAction: { none: {} },
    statement: {
      managedRuleGroupStatement: {
        vendorName: 'AWS',
        name,
        ...(overrides.length && { ruleActionOverrides: overrides.map((rule) => ({ name: rule, actionToUse: { count: {} } })) }),
      },
    },
    visibilityConfig: visibility(name),
  };
}

export class ApiFirewall extends Construct {
  readonly webAcl: wafv2.CfnWebACL;
  readonly association: wafv2.CfnWebACLAssociation;

  constructor(scope: Construct, id: string, props: ApiFirewallProps) {
    super(scope, id);
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name: props.name,
      description: `${props.name}: AWS managed rules and a per-IP rate limit`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(props.name),
      rules: [
        {
          name: 'RatePerClientIp',
          priority: 0,
          action: { block: {} },
          statement: { rateBasedStatement: { aggregateKeyType: 'IP', limit: props.requestsPerIpPer5Minutes, evaluationWindowSec: 300 } },
          visibilityConfig: visibility(`${props.name}-rate-per-ip`),
        },
        managedRuleGroup(1, 'AWSManagedRulesCommonRuleSet', ['SizeRestrictions_BODY']),
        managedRuleGroup(2, 'AWSManagedRulesKnownBadInputsRuleSet'),
      ],
    });
    this.association = new wafv2.CfnWebACLAssociation(this, 'Association', {
      resourceArn: `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}::/restapis/${props.restApiId}/stages/${props.stageName}`,
      webAclArn: this.webAcl.attrArn,
    });
  }
}
