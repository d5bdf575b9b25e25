/** Calendar dates on the wire and in SQL are ISO `YYYY-MM-DD` strings, in UTC. */

/** The UTC calendar date of an instant (now by default). */
export const isoDateOf = (instant: Date | number = Date.now()): string => new Date(instant).toISOString().slice(0, 10);

/** Today's UTC calendar date. */
export const todayUtc = (): string => isoDateOf();
