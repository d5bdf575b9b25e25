import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearerToken, generateApiKey, hashApiKey, KEY_MODES, parseApiKey, redactApiKey, type KeyMode } from '../../shared/auth/api-key-format';

const BASE62_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345'; // 32 base62 characters
const VALID_KEY = `bo_live_ent_acme_${SECRET}`;

const entityCode = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: 2, maxLength: 32 });
const mode = fc.constantFrom<KeyMode>(...KEY_MODES);

describe('parseApiKey', () => {
  it('splits a well-formed key into mode, entity code and secret', () => {
    expect(parseApiKey(VALID_KEY)).toEqual({ mode: 'live', entityCode: 'acme', secret: SECRET });
    expect(parseApiKey(`bo_test_ent_x9_${SECRET}`)).toEqual({ mode: 'test', entityCode: 'x9', secret: SECRET });
  });

  it.each([
    ['empty string', ''],
    ['wrong product prefix', `xx_live_ent_acme_${SECRET}`],
    ['unknown mode', `bo_prod_ent_acme_${SECRET}`],
    ['missing ent marker', `bo_live_acme_${SECRET}`],
    ['upper-case entity code', `bo_live_ent_ACME_${SECRET}`],
    ['one-character entity code', `bo_live_ent_a_${SECRET}`],
    ['33-character entity code', `bo_live_ent_${'a'.repeat(33)}_${SECRET}`],
    ['underscore inside entity code', `bo_live_ent_ac_me_${SECRET}`],
    ['secret one character short', `bo_live_ent_acme_${SECRET.slice(1)}`],
    ['secret one character long', `bo_live_ent_acme_${SECRET}x`],
    ['non-base62 secret character', `bo_live_ent_acme_${SECRET.slice(1)}-`],
    ['leading whitespace', ` ${VALID_KEY}`],
    ['trailing newline', `${VALID_KEY}\n`],
    ['extra trailing segment', `${VALID_KEY}_extra`],
    ['upper-case prefix', `BO_live_ent_acme_${SECRET}`],
  ])('rejects a key with %s', (_label, key) => {
    expect(parseApiKey(key)).toBeUndefined();
  });

  it('never accepts a key whose prefix is not bo_<mode>_ent_ (property)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), mode, entityCode, (prefix, m, code) => {
        fc.pre(prefix !== 'bo');
        expect(parseApiKey(`${prefix}_${m}_ent_${code}_${SECRET}`)).toBeUndefined();
      }),
    );
  });

  it('never accepts a key with a segment added or removed (property)', () => {
    fc.assert(
      fc.property(
        mode,
        entityCode,
        fc.string({ unit: fc.constantFrom(...BASE62_CHARS), minLength: 1, maxLength: 10 }),
        fc.integer({ min: 0, max: 5 }),
        fc.boolean(),
        (m, code, extra, position, insert) => {
          const segments = ['bo', m, 'ent', code, SECRET];
          if (insert) segments.splice(position, 0, extra);
          else segments.splice(Math.min(position, 4), 1);
          expect(parseApiKey(segments.join('_'))).toBeUndefined();
        },
      ),
    );
  });
});

describe('generateApiKey', () => {
  it('produces bo_<mode>_ent_<code>_<32 base62 characters>', () => {
    expect(generateApiKey('live', 'acme')).toMatch(/^bo_live_ent_acme_[0-9A-Za-z]{32}$/);
    expect(generateApiKey('test', 'acme')).toMatch(/^bo_test_ent_acme_[0-9A-Za-z]{32}$/);
  });

  it('produces distinct keys on every call', () => {
    const keys = new Set(Array.from({ length: 500 }, () => generateApiKey('test', 'acme')));
    expect(keys.size).toBe(500);
  });

  it('uses the whole base62 alphabet in secrets', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) for (const char of parseApiKey(generateApiKey('test', 'acme'))!.secret) seen.add(char);
    expect(seen.size).toBe(62);
  });

  it.each(['', 'a', 'ACME', 'ac_me', 'ac-me', "x'; DROP TABLE", 'a'.repeat(33), 'café'])('refuses the invalid entity code %j', (code) => {
    expect(() => generateApiKey('live', code)).toThrow(/invalid entity code/);
  });

  it('round-trips through parseApiKey for any valid entity code and both modes (property)', () => {
    fc.assert(
      fc.property(mode, entityCode, (m, code) => {
        const key = generateApiKey(m, code);
        const parsed = parseApiKey(key);
        expect(parsed).toBeDefined();
        expect(parsed!.mode).toBe(m);
        expect(parsed!.entityCode).toBe(code);
        expect(parsed!.secret).toMatch(/^[0-9A-Za-z]{32}$/);
        expect(key).toBe(`bo_${m}_ent_${code}_${parsed!.secret}`);
      }),
    );
  });
});

describe('hashApiKey', () => {
  it('is the lower-case hex SHA-256 of the whole key', () => {
    const hash = hashApiKey(VALID_KEY);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(createHash('sha256').update(VALID_KEY).digest('hex'));
  });

  it('is deterministic and differs for different keys', () => {
    expect(hashApiKey(VALID_KEY)).toBe(hashApiKey(VALID_KEY));
    expect(hashApiKey(VALID_KEY)).not.toBe(hashApiKey(VALID_KEY.replace('live', 'test')));
  });

  it('hashes the empty string to the known SHA-256 value', () => {
    expect(hashApiKey('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('redactApiKey', () => {
  it('keeps the prefix, mode, entity code and only the last four secret characters', () => {
    expect(redactApiKey(VALID_KEY)).toBe('bo_live_ent_acme_...2345');
  });

  it('never contains more than four characters of the secret (property)', () => {
    fc.assert(
      fc.property(mode, entityCode, (m, code) => {
        const key = generateApiKey(m, code);
        const secret = parseApiKey(key)!.secret;
        const redacted = redactApiKey(key);
        expect(redacted).toBe(`bo_${m}_ent_${code}_...${secret.slice(-4)}`);
        expect(redacted).not.toContain(secret.slice(-5));
      }),
    );
  });

  it('throws for a malformed key', () => {
    expect(() => redactApiKey('not-a-key')).toThrow(/malformed/);
  });
});

describe('bearerToken', () => {
  it('returns the token of a Bearer header', () => {
    expect(bearerToken(`Bearer ${VALID_KEY}`)).toBe(VALID_KEY);
  });

  it.each(['bearer', 'BEARER', 'BeArEr'])('accepts the scheme case-insensitively (%s)', (scheme) => {
    expect(bearerToken(`${scheme} ${VALID_KEY}`)).toBe(VALID_KEY);
  });

  it('tolerates extra whitespace between scheme and token and after the token', () => {
    expect(bearerToken(`Bearer    ${VALID_KEY}  `)).toBe(VALID_KEY);
    expect(bearerToken(`Bearer\t${VALID_KEY}`)).toBe(VALID_KEY);
  });

  it.each([
    ['undefined', undefined],
    ['empty header', ''],
    ['scheme without token', 'Bearer'],
    ['scheme followed by spaces only', 'Bearer   '],
    ['Basic scheme', 'Basic dXNlcjpwYXNz'],
    ['Token scheme', `Token ${VALID_KEY}`],
    ['bare token without scheme', VALID_KEY],
    ['two tokens', `Bearer ${VALID_KEY} ${VALID_KEY}`],
    ['scheme glued to token', `Bearer${VALID_KEY}`],
    ['leading whitespace before the scheme', ` Bearer ${VALID_KEY}`],
  ])('rejects %s', (_label, header) => {
    expect(bearerToken(header)).toBeUndefined();
  });
});
