import { v7 } from 'uuid';

/** Time-ordered UUID v7: new rows land at the right end of every (created_at, id) index. */
export const newId = (): string => v7();

/** Any UUID, either case (request ids are lower-cased by the `id()` schema; this tests references that may be an id or a number). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
