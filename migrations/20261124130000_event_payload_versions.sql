-- Up Migration

-- Every event now carries `payload_version`, the version of its type's payload (events/catalog.ts).
-- Events recorded before it get theirs here: an order in data.object that still has its `lines`
-- was recorded before orders travelled without lines and adjustments (version 1), an order without
-- them after (version 2); every other event is at version 1. Test pings waiting in the deliveries
-- table are at 1. The migrating role owns these tables, so forcing row level security is lifted
-- for this transaction only.
ALTER TABLE event_outbox NO FORCE ROW LEVEL SECURITY;
ALTER TABLE webhook_deliveries NO FORCE ROW LEVEL SECURITY;

UPDATE event_outbox
   SET payload = jsonb_set(
         payload,
         '{payload_version}',
         to_jsonb(CASE WHEN payload -> 'data' -> 'object' ->> 'object' = 'order' AND NOT (payload -> 'data' -> 'object' ? 'lines') THEN 2 ELSE 1 END))
 WHERE NOT (payload ? 'payload_version');

UPDATE webhook_deliveries SET payload = jsonb_set(payload, '{payload_version}', '1')
 WHERE payload IS NOT NULL AND NOT (payload ? 'payload_version');

ALTER TABLE event_outbox FORCE ROW LEVEL SECURITY;
ALTER TABLE webhook_deliveries FORCE ROW LEVEL SECURITY;

-- Down Migration
-- The field is harmless to keep: an older reader ignores it.
SELECT 1;
