/**
 * The payload version of each event type, as the outbox stamps it on every event
 * (`payload_version`). A version names the shape and meaning of `data.object` for that type; it
 * rises when either changes in a way a subscriber could notice, with a changelog entry.
 *
 * events/catalog.ts declares the same versions with each contract (and a test holds the two
 * equal); they live here as plain data because the outbox, which every function bundles, must not
 * load the catalog and the schemas of every capability it imports.
 */

/** Types whose payload has moved past version 1. Every other type is at version 1. */
const PAYLOAD_VERSIONS: Readonly<Record<string, number>> = {
  // 2 (2026-11-24): an order travels without `lines` and `adjustments` (GET the order for them).
  'order.created': 2,
  'order.updated': 2,
  'order.deleted': 2,
  'order.confirmed': 2,
  'order.held': 2,
  'order.released': 2,
  'order.approval_requested': 2,
  'order.approved': 2,
  'order.rejected': 2,
  'order.cancelled': 2,
  'order.voided': 2,
  // New after the change, so never at 1; at 2 like every event carrying an order.
  'order.archived': 2,
  'order.unarchived': 2,
  'order.expired': 2,
  'order.converted': 2,
  'purchase_order.sent': 2,
  'return.created': 2,
};

export function payloadVersion(type: string): number {
  return Object.hasOwn(PAYLOAD_VERSIONS, type) ? PAYLOAD_VERSIONS[type] : 1;
}
