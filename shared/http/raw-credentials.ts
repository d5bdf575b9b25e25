/**
 * Raw card or bank credentials are never accepted by the API (spec, Account payment method): the
 * handler stack runs every parsed JSON body through `findRawCredentials` before validation,
 * idempotency or logging, and refuses a hit with a 400 naming the JSON path (never the value).
 *
 * What counts (key names compared lower-case without `_`, `-` or spaces):
 * - card: a card number or security code field (card_number, cc_number, pan, cvc, cvv, cvc2,
 *   cvv2, security_code ...); `number` next to a cvc/exp_month or inside a `card` object; and any
 *   value of 13 to 19 digits passing the Luhn check in a field named number or named like a card.
 * - bank: routing_number (and aba/ach routing, iban, bank_account_number) anywhere; account_number
 *   only next to a routing number or inside a bank object, because `account_number` is also the
 *   customer and vendor reference on accounts and vendors.
 */

type RawCredentialKind = 'card' | 'bank';

export interface RawCredentialHit {
  kind: RawCredentialKind;
  /** The JSON path, e.g. `card.number` or `items[0].cvc`. */
  path: string;
}

const CARD_KEYS = new Set([
  'cardnumber',
  'ccnumber',
  'creditcardnumber',
  'debitcardnumber',
  'pan',
  'primaryaccountnumber',
  'cvc',
  'cvv',
  'cvc2',
  'cvv2',
  'securitycode',
  'cardsecuritycode',
  'cardcvc',
  'cardcvv',
  'cardverificationvalue',
  'cardverificationcode',
]);
const BANK_KEYS = new Set([
  'routingnumber',
  'abaroutingnumber',
  'aba',
  'abanumber',
  'achrouting',
  'achroutingnumber',
  'routingtransitnumber',
  'iban',
  'bankaccountnumber',
  'achaccountnumber',
]);
const CARD_CONTAINERS = new Set(['card', 'creditcard', 'debitcard', 'paymentcard']);
const BANK_CONTAINERS = new Set(['bank', 'bankaccount', 'usbankaccount', 'ach', 'achdebit', 'achaccount']);
const CVC_SIBLINGS = new Set(['cvc', 'cvv', 'cvc2', 'cvv2', 'securitycode', 'expmonth', 'expyear', 'expiry', 'expiration']);

const normalise = (key: string) => key.toLowerCase().replace(/[_\-\s]/g, '');

/** The Luhn (mod 10) check every payment card number passes. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A 13 to 19 digit value (spaces or dashes allowed between digits) that passes Luhn. */
export function looksLikeCardNumber(value: unknown): boolean {
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  const text = String(value).trim();
  if (!/^\d[\d -]*\d$/.test(text)) return false;
  const digits = text.replace(/[ -]/g, '');
  return digits.length >= 13 && digits.length <= 19 && passesLuhn(digits);
}

const present = (value: unknown) => value !== null && value !== undefined && value !== '';

function check(value: unknown, path: string, parentKey: string): RawCredentialHit | undefined {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = check(value[i], `${path}[${i}]`, parentKey);
      if (hit) return hit;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  const keys = new Set(entries.map(([key]) => normalise(key)));
  const inCard = CARD_CONTAINERS.has(parentKey);
  const inBank = BANK_CONTAINERS.has(parentKey);
  const hasRouting = [...keys].some((key) => BANK_KEYS.has(key) && key !== 'iban');
  const hasCardSibling = [...keys].some((key) => CVC_SIBLINGS.has(key));
  for (const [key, member] of entries) {
    const name = normalise(key);
    const memberPath = path ? `${path}.${key}` : key;
    if (present(member) && typeof member !== 'object') {
      if (CARD_KEYS.has(name)) return { kind: 'card', path: memberPath };
      if (BANK_KEYS.has(name)) return { kind: 'bank', path: memberPath };
      if (name === 'number' && (inCard || hasCardSibling)) return { kind: 'card', path: memberPath };
      if ((name === 'accountnumber' || name === 'number') && (inBank || hasRouting)) return { kind: 'bank', path: memberPath };
      if ((name === 'number' || name.includes('card')) && looksLikeCardNumber(member)) return { kind: 'card', path: memberPath };
    }
    const hit = check(member, memberPath, name);
    if (hit) return hit;
  }
  return undefined;
}

/** The first raw card or bank credential in a parsed JSON body, or undefined. */
export function findRawCredentials(body: unknown): RawCredentialHit | undefined {
  return check(body, '', '');
}
