/** Calendar dates on the wire and in SQL are ISO `YYYY-MM-DD` strings, in UTC. */

/** An instant as ISO 8601 in UTC, as the wire carries timestamps (pg returns Date or text). */
export const isoTimestamp = (instant: Date | number | string): string => new Date(instant).toISOString();

/** The UTC calendar date of an instant (now by default). */
export const isoDateOf = (instant: Date | number | string = Date.now()): string => isoTimestamp(instant).slice(0, 10);

/** Today's UTC calendar date. */
export const todayUtc = (): string => isoDateOf();
