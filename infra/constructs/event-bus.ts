/**
 * The EventBridge bus domain events are published to (source `bizops.api`, detail-type = event
 * type); webhook delivery subscribes to it with rules. An archive keeps every event the bus
 * receives for the stage's retention, so events can be replayed onto the bus (e.g. after a
 * consumer's outage): EventBridge console → Archives → Start replay.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import { Construct } from 'constructs';
import type { Removal } from '../config/stages';
import { removalPolicyOf } from './conventions';

export interface EventBusProps {
  busName: string;
  removal: Removal;
  archiveRetentionDays: number;
}

export class DomainEventBus extends Construct {
  readonly bus: events.EventBus;
  readonly archive: events.Archive;

  constructor(scope: Construct, id: string, props: EventBusProps) {
    super(scope, id);
    this.bus = new events.EventBus(this, 'Bus', { eventBusName: props.busName, description: 'BizOps domain events (source bizops.api)' });
    this.bus.applyRemovalPolicy(removalPolicyOf(props.removal));
    this.archive = this.bus.archive('Archive', {
      archiveName: `${props.busName}-archive`,
      description: `Every event of ${props.busName}, for replay`,
      // Every event on this bus comes from this account (the API's publisher and the sweeper).
      eventPattern: { account: [Stack.of(this).account] },
      retention: Duration.days(props.archiveRetentionDays),
    });
  }
}
