import type { KeyMode } from './api-key-format';

/** Who is calling, as the authorizer established it. */
export interface Caller {
  entityId: string;
  entityCode: string;
  keyId: string;
  userId: string;
  mode: KeyMode;
  scopes: readonly string[];
}
