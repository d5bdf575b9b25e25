import { describe, expect, it } from 'vitest';
import { EVENT_CATALOG } from '../../events/catalog';
import { EVENT_TYPES, isEventType } from '../../events/types';
import { payloadVersion } from '../../shared/events/payload-versions';
import { Order } from '../../shared/orders/schemas/order';
import { ROUTE_MODULES } from '../../functions/routes';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

describe('event contracts', () => {
  it('every event a handler records is in the catalog', () => {
    const dir = fileURLToPath(new URL('../../functions/', import.meta.url));
    for (const key of Object.keys(ROUTE_MODULES)) {
      const source = readFileSync(`${dir}${key}.ts`, 'utf8');
      for (const [, type] of source.matchAll(/events\.record\('([\w.]+)'/g)) expect(Object.keys(EVENT_CATALOG), `${key}: ${type}`).toContain(type);
    }
  });

  it('names the same types as the plain list the events feed and webhook subscriptions check against', () => {
    expect([...EVENT_TYPES].sort()).toEqual(Object.keys(EVENT_CATALOG).sort());
    expect(isEventType('order.created')).toBe(true);
    expect(isEventType('order.created ')).toBe(false);
    expect(isEventType('toString')).toBe(false);
  });

  it('types are resource.action in lower case with a positive version', () => {
    for (const [type, contract] of Object.entries(EVENT_CATALOG)) {
      expect(type).toMatch(/^[a-z_]+\.[a-z_]+$/);
      expect(contract.version).toBeGreaterThan(0);
    }
  });

  it('the outbox stamps the same payload version as the catalog declares, for every type', () => {
    for (const [type, contract] of Object.entries(EVENT_CATALOG)) expect(payloadVersion(type), type).toBe(contract.version);
    expect(payloadVersion('ping')).toBe(1);
  });

  it('every event that carries an order is at version 2: orders lost their lines and adjustments in events', () => {
    const carriesOrder = Object.entries(EVENT_CATALOG)
      .filter(([, contract]) => isOrderSchema(contract.object))
      .map(([type]) => type);
    expect(carriesOrder).toEqual(expect.arrayContaining(['order.created', 'order.converted', 'purchase_order.sent', 'return.created']));
    for (const type of carriesOrder) expect(EVENT_CATALOG[type as keyof typeof EVENT_CATALOG].version, type).toBe(2);
    // Its object is a fulfillment, whose payload did not change.
    expect(carriesOrder).not.toContain('order.fulfilled');
    expect(EVENT_CATALOG['order.fulfilled'].version).toBe(1);
  });
});

/** The order schema, or an extension of it (a schema with every field of the order). */
function isOrderSchema(schema: unknown): boolean {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  return schema === Order || (shape !== undefined && Object.keys(Order.shape).every((key) => key in shape));
}
