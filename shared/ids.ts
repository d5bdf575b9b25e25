import { v7 } from 'uuid';

/** Time-ordered UUID v7: new rows land at the right end of every (created_at, id) index. */
export const newId = (): string => v7();

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
