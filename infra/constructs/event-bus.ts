/**
 * The EventBridge bus domain events are published to (source `bizops.api`, detail-type = event
 * type); webhook delivery subscribes to it with rules.
 */
import * as events from 'aws-cdk-lib/aws-events';
import { Construct } from 'constructs';
import type { Removal } from '../config/stages';
import { removalPolicyOf } from './conventions';

export interface EventBusProps {
  busName: string;
  removal: Removal;
}

export class DomainEventBus extends Construct {
  readonly bus: events.EventBus;

  constructor(scope: Construct, id: string, props: EventBusProps) {
    super(scope, id);
    this.bus = new events.EventBus(this, 'Bus', { eventBusName: props.busName, description: 'BizOps domain events (source bizops.api)' });
    this.bus.applyRemovalPolicy(removalPolicyOf(props.removal));
  }
}
