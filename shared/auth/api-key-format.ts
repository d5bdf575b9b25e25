/**
 * API key strings: `bo_<live|test>_ent_<entity_code>_<secret>`.
 *
 * The entity code is readable in the key (so support can tell which entity a leaked key belongs
 * to), the secret is 32 base62 characters (~190 bits). Only the SHA-256 of the whole string is
 * stored: the secret's entropy makes a slow hash unnecessary, and a fast one keeps the authorizer
 * to one indexed lookup.
 */
import { createHash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'bo';
export const KEY_MODES = ['live', 'test'] as const;
export type KeyMode = (typeof KEY_MODES)[number];

export const ENTITY_CODE_PATTERN = /^[a-z0-9]{2,32}$/;
const SECRET_LENGTH = 32;
const KEY_PATTERN = /^bo_(live|test)_ent_([a-z0-9]{2,32})_([A-Za-z0-9]{32})$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface ParsedApiKey {
  mode: KeyMode;
  entityCode: string;
  secret: string;
}

export function parseApiKey(key: string): ParsedApiKey | undefined {
  const match = KEY_PATTERN.exec(key);
  if (!match) return undefined;
  return { mode: match[1] as KeyMode, entityCode: match[2], secret: match[3] };
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting larger bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function generateApiKey(mode: KeyMode, entityCode: string): string {
  if (!ENTITY_CODE_PATTERN.test(entityCode)) throw new Error(`invalid entity code ${entityCode}`);
  return `${KEY_PREFIX}_${mode}_ent_${entityCode}_${randomBase62(SECRET_LENGTH)}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What lists and dashboards show: the prefix and the last four characters. */
export function redactApiKey(key: string): string {
  const parsed = parseApiKey(key);
  if (!parsed) throw new Error('cannot redact a malformed key');
  return `${KEY_PREFIX}_${parsed.mode}_ent_${parsed.entityCode}_...${parsed.secret.slice(-4)}`;
}

/** Pulls the key out of an `Authorization: Bearer <key>` header value. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
