/**
 * The event contracts: every event type the API emits, the version of its payload and the schema
 * of `data.object`. The recorder accepts only these types; the webhook dispatcher and the docs
 * read the same list. A change in an object's meaning gets a new version and a changelog entry.
 */
import { z } from 'zod';
import { ApiKey } from '../shared/schemas/api-key';
import { Location } from '../shared/schemas/location';
import { Manufacturer } from '../shared/schemas/manufacturer';

export interface EventContract {
  version: number;
  description: string;
  object: z.ZodType;
}

export const EVENT_CATALOG = {
  'location.created': { version: 1, description: 'A location was created.', object: Location },
  'location.updated': { version: 1, description: 'A location changed; previous_attributes holds the old values.', object: Location },
  'location.deleted': { version: 1, description: 'A location was deleted; the object is its last state.', object: Location },
  'manufacturer.created': { version: 1, description: 'A manufacturer was created.', object: Manufacturer },
  'manufacturer.updated': { version: 1, description: 'A manufacturer changed; previous_attributes holds the old values.', object: Manufacturer },
  'manufacturer.deleted': { version: 1, description: 'A manufacturer was deleted; the object is its last state.', object: Manufacturer },
  'api_key.created': { version: 1, description: 'An API key was created (never with its secret).', object: ApiKey },
  'api_key.revoked': { version: 1, description: 'An API key was revoked.', object: ApiKey },
  'api_key.rolled': {
    version: 1,
    description: 'An API key was replaced; the object is the new key (without secret) and rolled_from the old one.',
    object: ApiKey.extend({ rolled_from: ApiKey }),
  },
} as const satisfies Record<string, EventContract>;

export type EventType = keyof typeof EVENT_CATALOG;
